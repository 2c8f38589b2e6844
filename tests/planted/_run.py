"""Run the example program of docs/diff.md over the reference with ``patches`` applied."""
from katra.testing import example


def run(patches):
    for module, name, replacement in patches:
        setattr(module, name, replacement)
    example.main()
