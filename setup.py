"""Build the compiled core ``katra._core`` (metadata lives in pyproject.toml).

``KATRA_CYTHON_DEBUG=1`` turns on bounds and initialisation checks of typed
memoryviews; raw C arrays are checked by the AddressSanitizer build instead
(see .ci/run).

The documentation travels with the package: ``build_py`` ships the repo's
``docs/*.md`` as the package data ``katra/docs/*.md`` (``katra rules --full``
prints the rulebook from there).  A wheel gets copies; an editable install
gets a git-ignored link ``src/katra/docs -> ../../docs``, so docs/ stays the
only copy in the repository.
"""
import importlib.util
import os
import shutil
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

DEBUG = os.environ.get("KATRA_CYTHON_DEBUG", "") not in ("", "0")
DOCS = Path("docs")  # relative to the source tree, where every build runs
DOCS_IN_PACKAGE = "docs"  # installed as katra/docs/


# Flags per compiler family.  GCC and clang (Linux, macOS, MinGW): -O3, and -g0
# drops the debug information Python's own CFLAGS ask for (a 2.7 MB core becomes
# 0.5 MB).  The hot loops are generic inline functions called with constant shapes
# (lane words, loop length, family): forcing them inline compiles one specialised
# copy per game shape.  MSVC (Windows): setuptools' /O2, inlining by its own
# choice, and C11 mode (`static inline` in C; Visual Studio 2019 16.8 or later).
# -ffp-contract=off: no fused multiply-add, so that katra.MCTS's UCB1 scores are
# the doubles Python computes from the same formula (tests/test_mcts.py).
# Anything else gets its own defaults.  What differs between platforms
# in the C code itself (threads, clock, atomics, __int128, SSE2) is in one
# header, cython_core/_portable.h.
FORCE_INLINE = "-DCYTHON_INLINE=__inline__ __attribute__((always_inline, unused))"
NO_FMA = "-ffp-contract=off"
OPTIMISE = {"unix": ["-O3", "-g0", FORCE_INLINE, NO_FMA],
            "mingw32": ["-O3", "-g0", FORCE_INLINE, NO_FMA], "msvc": ["/std:c11"]}
DEBUG_FLAGS = {"unix": ["-O1", "-g", NO_FMA], "mingw32": ["-O1", "-g", NO_FMA],
               "msvc": ["/Od", "/Zi", "/std:c11"]}


class BuildExtPerCompiler(build_ext):
    """build_ext that gives each compiler flags it understands (none are GCC-only)."""

    def build_extensions(self) -> None:
        flags = (DEBUG_FLAGS if DEBUG else OPTIMISE).get(self.compiler.compiler_type, [])
        for extension in self.extensions:
            extension.extra_compile_args = [*flags, *extension.extra_compile_args]
        super().build_extensions()


class BuildPyWithDocs(build_py):
    """build_py that also installs docs/*.md as package data of ``katra``."""

    def _doc_sources(self) -> list[Path]:
        sources = sorted(DOCS.glob("*.md"))
        if DOCS / "rules.md" not in sources:
            raise SystemExit("docs/rules.md is missing: katra's rulebook must ship with it")
        return sources

    def _doc_targets(self) -> list[str]:
        target = Path(self.build_lib, "katra", DOCS_IN_PACKAGE)
        return [str(target / source.name) for source in self._doc_sources()]

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            self._link_docs_in_place()
            return
        for source, target in zip(self._doc_sources(), self._doc_targets(), strict=True):
            self.mkpath(os.path.dirname(target))
            self.copy_file(str(source), target, preserve_mode=False)

    def _link_docs_in_place(self) -> None:
        """Editable install: the package dir gets a link to docs/ (a copy if links fail)."""
        self._doc_sources()
        in_package = Path(self.get_package_dir("katra"), DOCS_IN_PACKAGE)
        if in_package.is_symlink() or in_package.is_file():
            in_package.unlink()
        elif in_package.is_dir():
            shutil.rmtree(in_package)
        try:
            in_package.symlink_to(os.path.relpath(DOCS.resolve(), in_package.parent.resolve()),
                                  target_is_directory=True)
        except OSError:
            shutil.copytree(DOCS, in_package)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if getattr(self, "editable_mode", False):
            return outputs
        return outputs + self._doc_targets()

    def get_source_files(self) -> list[str]:
        return super().get_source_files() + [str(source) for source in self._doc_sources()]


def write_templates() -> None:
    """cython_core/*.pxi.in -> *.pxi from the game table, before cythonize
    reads the core (cython_core/_templates.py)."""
    spec = importlib.util.spec_from_file_location("katra_core_templates",
                                                  Path("cython_core", "_templates.py"))
    assert spec is not None and spec.loader is not None
    templates = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = templates       # (its dataclasses look their module up)
    spec.loader.exec_module(templates)
    templates.write_templates()


write_templates()
extensions = [Extension("katra._core", sources=["cython_core/_core.pyx"],
                        include_dirs=["cython_core"], depends=["cython_core/_portable.h"])]

setup(
    cmdclass={"build_py": BuildPyWithDocs, "build_ext": BuildExtPerCompiler},
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": DEBUG,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": DEBUG,
            "nonecheck": False,
            "embedsignature": True,
        },
        include_path=["cython_core"],
        force=DEBUG,  # directives differ from a normal build: never reuse its C file
    )
)
