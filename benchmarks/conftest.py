"""Benchmarks run on demand: ``python -m pytest benchmarks`` (see README)."""
import importlib

import pytest


@pytest.fixture(params=["core", "reference"])
def impl(request):
    return importlib.import_module("katra._core" if request.param == "core"
                                   else "katra._reference")


def pytest_xdist_auto_num_workers(config):
    """Benchmarks time one thing at a time: the suite's ``-n auto`` (pyproject.toml)
    runs them in this one process (pytest-benchmark does not run under xdist)."""
    return 0
