"""tests/test_cython_api.py's own extension over katra's C API (as the example builds)."""
from Cython.Build import cythonize
from setuptools import Extension, setup

import katra

setup(name="katra-capi-check", version="1.0",
      ext_modules=cythonize([Extension("capi_check", ["capi_check.pyx"])],
                            include_path=[katra.get_include()]))
