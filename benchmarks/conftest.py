"""Benchmarks run on demand: ``python -m pytest benchmarks`` (see README)."""
import importlib

import pytest


@pytest.fixture(params=["core", "reference"])
def impl(request):
    return importlib.import_module("katra._core" if request.param == "core"
                                   else "katra._reference")
