"""Importing a learning adapter without its extra names the extra to install."""
from __future__ import annotations

import subprocess
import sys

import pytest

BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {blocked!r}:
            raise ImportError(f'No module named {{name!r}}', name=name)
sys.meta_path.insert(0, Block())
import katra
assert 'katra.{module}' not in sys.modules
try:
    import katra.{module}
except ImportError as exc:
    print(exc)
else:
    print('imported')
"""


@pytest.mark.parametrize("module, name, blocked, extra", [
    ("openspiel", "OpenSpiel", ("pyspiel", "open_spiel"), "openspiel"),
    ("pettingzoo", "PettingZoo", ("pettingzoo",), "pettingzoo"),
    ("gymnasium", "Gymnasium", ("gymnasium",), "gymnasium"),
])
def test_missing_extra_is_named(module, name, blocked, extra):
    code = BLOCKER.format(blocked=set(blocked), module=module)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # katra is on no package index: the message says what works from a source folder or
    # a wheel file (README, "Install and run"), never pip install 'katra[...]'
    missing = blocked[0]
    assert out.stdout == (f"katra.{module} needs {name} (missing: {missing}): pip install "
                          f"'.[{extra}]' in katra's source folder, or pip install "
                          f"'WHEEL[{extra}]' with the path of katra's wheel file "
                          f"(dist/katra-*.whl)\n"), out.stdout + out.stderr
    assert "katra[" not in out.stdout


def test_plain_import_loads_no_extra():
    code = ("import sys, katra\n"
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium', 'numpy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
