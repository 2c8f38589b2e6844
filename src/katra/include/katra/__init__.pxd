# katra's Cython declarations (docs/cython.md): `from katra.capi cimport ...`,
# with katra.get_include() on the Cython include path.
