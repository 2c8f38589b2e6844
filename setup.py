"""Build the compiled core ``katra._core`` (metadata lives in pyproject.toml).

``KATRA_CYTHON_DEBUG=1`` turns on bounds and initialisation checks of typed
memoryviews; raw C arrays are checked by the AddressSanitizer build instead
(see .ci/run).
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("KATRA_CYTHON_DEBUG", "") not in ("", "0")

extensions = [
    Extension(
        "katra._core",
        sources=["cython_core/_core.pyx"],
        extra_compile_args=["-O3"] if not DEBUG else ["-O1", "-g"],
    )
]

setup(
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
