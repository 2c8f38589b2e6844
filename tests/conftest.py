"""Shared fixtures: ``impl`` (the backend module) and ``backend`` (its name) run a
test on both backends.  Helpers shared by test files are in helpers.py.

The compiled core is imported unconditionally: if it is missing the core half
of every test fails (it is never skipped), so a broken build cannot pass.
"""
import pytest

from helpers import BACKENDS
from katra.api._backends import backend_module


@pytest.fixture(params=BACKENDS)
def impl(request):
    """The backend module (``katra._core`` or ``katra._reference``)."""
    return backend_module(request.param)


@pytest.fixture(params=BACKENDS)
def backend(request):
    """The backend name, ``"core"`` or ``"reference"`` (for the API's ``backend=``)."""
    return request.param
