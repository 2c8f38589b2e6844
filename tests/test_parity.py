"""API parity: the compiled core and the reference expose the same engine
surface (docs/backends.md): the same public names, and the same parameters
(names, kinds, defaults) for every function and method of it.
"""
import inspect

import pytest

from katra import _core, _reference

MODULE_SURFACE = ["Position", "perft", "divide", "playouts"]
METHODS = ["initial", "from_text", "text", "copy", "legal_actions", "is_legal", "apply",
           "lap_count", "is_terminal", "outcome", "__eq__"]
PROPERTIES = ["game_id", "board", "owners", "stores", "to_move", "pending_offer"]
# Documented extras of the core, for the API's fast paths (src/katra/_core.pyi).
CORE_ONLY = {"push", "pop", "stack_depth", "zobrist"}


def parameters(function):
    """(name, kind, default) of each parameter, annotations ignored."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("name", ["perft", "divide", "playouts"])
def test_jobs_have_the_same_parameters(name):
    assert parameters(getattr(_core, name)) == parameters(getattr(_reference, name))


@pytest.mark.parametrize("name", [n for n in METHODS if n != "__eq__"])
def test_position_methods_have_the_same_parameters(name):
    assert parameters(getattr(_core.Position, name)) == parameters(
        getattr(_reference.Position, name))


def test_the_documented_surface_exists_on_both():
    for module in (_core, _reference):
        for name in MODULE_SURFACE:
            assert hasattr(module, name), (module.__name__, name)
        for name in METHODS + PROPERTIES:
            assert hasattr(module.Position, name), (module.__name__, name)
    for name in PROPERTIES:  # read-only views, not methods, on both
        for module in (_core, _reference):
            assert not callable(getattr(module.Position.initial("gore"), name)), name


def test_core_extras_are_only_the_documented_ones():
    core = {n for n in dir(_core.Position) if not n.startswith("_")}
    assert core - set(METHODS) - set(PROPERTIES) == CORE_ONLY


def test_classmethods_on_both():
    for module in (_core, _reference):
        for name in ("initial", "from_text"):
            assert isinstance(inspect.getattr_static(module.Position, name), classmethod) or \
                inspect.ismethod(getattr(module.Position, name)), (module.__name__, name)
