"""Build the example against the installed katra: its C API comes from katra.capi
(katra/capi.pxd, found through katra.get_include()); nothing is linked."""
from Cython.Build import cythonize
from setuptools import Extension, setup

import katra

setup(ext_modules=cythonize(
    [Extension("cython_perft", ["cython_perft.pyx"])],
    include_path=[katra.get_include()],
))
