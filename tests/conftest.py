"""Shared fixtures: ``impl`` runs a test on both backends.

The compiled core is imported unconditionally: if it is missing the core half
of every test fails (it is never skipped), so a broken build cannot pass.
"""
import importlib

import pytest

BACKENDS = ("core", "reference")


def load_backend(name):
    return importlib.import_module("katra._core" if name == "core" else "katra._reference")


@pytest.fixture(params=BACKENDS)
def impl(request):
    """The backend module (``katra._core`` or ``katra._reference``)."""
    return load_backend(request.param)
