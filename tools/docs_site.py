"""mkdocs hook (mkdocs.yml): the repository's top-level documents as site pages,
and a check that the API reference lists every public name.

README.md becomes the home page (index.md) and CHANGELOG.md, CONTRIBUTING.md and
RELEASING.md pages of their own, read from the repository root at build time so
that each stays the one copy.  Their links are rewritten to the site's layout:
``docs/rules.md`` is ``rules.md`` there, and the README is ``index.md``.

After the build, every name in ``__all__`` of the modules in :data:`REFERENCED`
must have an entry in the generated reference pages (as ``module.name``, or
``katra.name`` for what ``katra`` re-exports), else the build fails.  The hook
needs nothing but the docs extra: the adapters, whose imports need their own
extras (NumPy, OpenSpiel, ...), are read from their source, as mkdocstrings
reads them; mkdocs itself is imported by the hooks that use it, so the link
rewriting and the reference check run without it (tests/test_docs_site.py).
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import posixpath
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs.structure.files import Files

ROOT = Path(__file__).resolve().parent.parent

#: repository file -> site page
PAGES = {
    "README.md": "index.md",
    "CHANGELOG.md": "changelog.md",
    "CONTRIBUTING.md": "contributing.md",
    "RELEASING.md": "releasing.md",
}

#: modules whose public names (``__all__``) the API reference must list
REFERENCED = ("katra", "katra.api", "katra.testing", "katra.stats", "katra.match",
              "katra.openspiel", "katra.pettingzoo", "katra.gymnasium")

#: the modules of REFERENCED that are not imported: each needs its extra
#: (``pip install "katra[openspiel]"`` ...), and ``katra`` re-exports none of them
ADAPTERS = ("katra.openspiel", "katra.pettingzoo", "katra.gymnasium")

_LINK = re.compile(r"\]\((?!https?:|#)([^)#\s]+)(#[^)\s]*)?\)")


def site_link(target: str, page: str) -> str:
    """Where a relative link written in the repository file ``page`` points on the site.

    >>> site_link("docs/rules.md", "README.md"), site_link("../README.md", "docs/diff.md")
    ('rules.md', 'index.md')
    >>> site_link("../../README.md", "docs/reference/api.md"), site_link("api.md", "docs/cli.md")
    ('../index.md', 'api.md')
    """
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
    if path in PAGES:
        path = "docs/" + PAGES[path]
    elif not path.startswith("docs/"):
        return target  # not a page of the site: left for mkdocs to report
    here = posixpath.dirname(site_path(page))
    return posixpath.relpath(path[len("docs/"):], here or ".")


def site_path(page: str) -> str:
    """The site path of a repository file: ``docs/x.md`` is ``x.md``, README ``index.md``."""
    return PAGES.get(page) or page[len("docs/"):]


def rewrite_links(text: str, page: str) -> str:
    """Every relative Markdown link of ``page`` (a repository path) in site terms."""
    return _LINK.sub(lambda m: f"]({site_link(m.group(1), page)}{m.group(2) or ''})", text)


def on_files(files: Files, config: Any) -> Files:
    from mkdocs.structure.files import File

    for source, page in PAGES.items():
        text = rewrite_links((ROOT / source).read_text(encoding="utf-8"), source)
        files.append(File.generated(config, page, content=text))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Pages under docs/ link to the README as ``../README.md``: the home page here."""
    if page.file.src_uri in PAGES.values():
        return markdown
    return rewrite_links(markdown, "docs/" + page.file.src_uri)


def source_all(module_name: str) -> list[str]:
    """``__all__`` of a module of the installed package, read from its source (the
    module is not run; its package ``katra`` is imported to find it)."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None:
        raise LookupError(f"{module_name} is not installed")
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"), spec.origin)
    for node in tree.body:
        if (isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)):
            names = ast.literal_eval(node.value)
            if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
                return list(names)
    raise LookupError(f"{spec.origin} has no literal __all__ of strings")


def missing_from_reference(anchors: set[str]) -> list[str]:
    """The public names of :data:`REFERENCED` with no entry among ``anchors``."""
    import katra

    missing = []
    for module_name in REFERENCED:
        if module_name in ADAPTERS:
            names, module = source_all(module_name), None
        else:
            module = importlib.import_module(module_name)
            names = module.__all__
        for name in names:
            reexported = module is not None and getattr(katra, name, None) is getattr(module, name)
            if f"{module_name}.{name}" not in anchors and not (
                    reexported and f"katra.{name}" in anchors):
                missing.append(f"{module_name}.{name}")
    return missing


def on_post_build(config: Any) -> None:
    from mkdocs.exceptions import PluginError

    pages = (Path(config["site_dir"]) / "reference").glob("*.html")
    anchors = {anchor for page in pages
               for anchor in re.findall(r'id="([\w.]+)"', page.read_text(encoding="utf-8"))}
    missing = missing_from_reference(anchors)
    if missing:
        raise PluginError("the API reference (docs/reference/) does not list "
                          + ", ".join(missing))
