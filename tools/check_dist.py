"""Check what katra's release artifacts contain: ``python tools/check_dist.py dist/*``.

Run from a git checkout: the expected contents are computed from the tracked
files, so that a new source file, test or document is expected at once.

* The sdist holds exactly what building and testing need: the build files,
  the core's Cython sources, the package sources, the docs/*.md it installs,
  the tests with their perft suites and planted programs, the fuzz
  harness and the examples; plus the metadata setuptools writes (PKG-INFO,
  setup.cfg, *.egg-info).  No generated C, no compiled module, no build leftovers.
* A wheel holds the package: its modules, the compiled core, the type stubs,
  ``py.typed``, the docs as ``katra/docs/*.md``, the perft, solved-position and opening
  suites, the C API's Cython declarations (``katra/include/katra/*.pxd``, for
  extensions built against the installed package: docs/cython.md); plus its
  ``.dist-info``.  No other C or Cython sources, no tests, no caches.

Exit status 1 with one line per problem, else a summary line per artifact.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent

#: top-level files of the sdist besides the folders below
SDIST_TOP = {"pyproject.toml", "setup.py", "MANIFEST.in", "LICENSE", "README.md",
             "CHANGELOG.md", "CONTRIBUTING.md", "RELEASING.md",
             "tools/docs_site.py",  # the docs site's hook (tests/test_docs_site.py)
             "tools/check_new_size.py"}  # a new game size built (tests/test_core_templates.py)
#: tracked folders shipped whole in the sdist (docs only as docs/*.md)
SDIST_FOLDERS = ("cython_core/", "src/katra/", "python_api/", "tests/", "fuzz/", "examples/")
#: what setuptools adds to an sdist
SDIST_METADATA = re.compile(r"PKG-INFO|setup\.cfg|src/katra\.egg-info/[^/]+")
#: what a wheel must never hold (Cython declarations only as the C API's, katra/include/katra/)
NEVER_IN_WHEEL = re.compile(r"(?!katra/include/katra/[^/]+\.pxd$)"
                            r".*(\.c|\.pyx|\.pxd|\.pxi|\.pyc|\.o|\.h)$|.*__pycache__.*|tests?/.*")


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return [line for line in out.splitlines() if line]


def expected_sdist(files: list[str]) -> set[str]:
    keep = {f for f in files if f in SDIST_TOP or f.startswith(SDIST_FOLDERS)
            or re.fullmatch(r"docs/[^/]+\.md", f)}
    return {f for f in keep if not f.endswith((".c", ".so", ".pyc"))}


def expected_wheel(files: list[str]) -> set[str]:
    names = set()
    for f in files:
        if f.startswith("src/katra/"):
            names.add(f[len("src/"):])
        elif f.startswith("python_api/") and f.endswith(".py"):
            names.add("katra/api/" + f[len("python_api/"):])
        elif re.fullmatch(r"docs/[^/]+\.md", f):
            names.add("katra/" + f)
    return names


def sdist_names(path: Path) -> list[str]:
    with tarfile.open(path) as tar:
        members = [m for m in tar.getmembers() if not m.isdir()]
    top = {PurePosixPath(m.name).parts[0] for m in members}
    if len(top) != 1:
        raise SystemExit(f"{path}: expected one top-level folder, found {sorted(top)}")
    return [str(PurePosixPath(*PurePosixPath(m.name).parts[1:])) for m in members]


def check_sdist(path: Path, files: list[str]) -> list[str]:
    names = sdist_names(path)
    problems = [f"{path.name}: {name} appears twice" for name in set(names)
                if names.count(name) > 1]
    have = {n for n in names if not SDIST_METADATA.fullmatch(n)}
    want = expected_sdist(files)
    problems += [f"{path.name}: missing {name}" for name in sorted(want - have)]
    problems += [f"{path.name}: should not hold {name}" for name in sorted(have - want)]
    if "PKG-INFO" not in names:
        problems.append(f"{path.name}: no PKG-INFO")
    return problems


def check_wheel(path: Path, files: list[str]) -> list[str]:
    with zipfile.ZipFile(path) as whl:
        names = [n for n in whl.namelist() if not n.endswith("/")]  # no folder entries
    problems = []
    core = [n for n in names if re.fullmatch(r"katra/_core\.[^/]*(\.so|\.pyd)", n)]
    if len(core) != 1:
        problems.append(f"{path.name}: expected one compiled katra/_core module, found {core}")
    dist_info = {n for n in names if re.match(r"katra-[^/]+\.dist-info/", n)}
    have = set(names) - dist_info - set(core)
    want = expected_wheel(files)
    problems += [f"{path.name}: missing {name}" for name in sorted(want - have)]
    problems += [f"{path.name}: should not hold {name}" for name in sorted(have - want)]
    problems += [f"{path.name}: should not hold {name}" for name in sorted(names)
                 if NEVER_IN_WHEEL.fullmatch(name) and name not in have - want]
    for required in ("METADATA", "RECORD", "WHEEL", "entry_points.txt", "licenses/LICENSE"):
        if not any(n.endswith(".dist-info/" + required) for n in dist_info):
            problems.append(f"{path.name}: no .dist-info/{required}")
    return problems


def main(paths: list[str]) -> int:
    if not paths:
        print("usage: python tools/check_dist.py dist/katra-*.tar.gz dist/katra-*.whl")
        return 2
    files = tracked()
    problems = []
    for name in paths:
        path = Path(name)
        if path.name.endswith(".tar.gz"):
            found = check_sdist(path, files)
            count = len(sdist_names(path))
        elif path.suffix == ".whl":
            found = check_wheel(path, files)
            with zipfile.ZipFile(path) as whl:
                count = sum(not n.endswith("/") for n in whl.namelist())
        else:
            found = [f"{name}: neither an sdist (.tar.gz) nor a wheel (.whl)"]
            count = 0
        problems += found
        if not found:
            print(f"{path.name}: {count} files, {path.stat().st_size / 1e6:.2f} MB, as expected")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
