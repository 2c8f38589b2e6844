"""API parity: the compiled core and the reference expose the same engine
surface (docs/backends.md): the same public names, and the same parameters
(names, kinds, defaults) for every function and method of it; push/pop, the
move stack and the Zobrist hash included, so that ``katra.State`` holds either
backend's ``Position`` as it is.
"""
import inspect

import pytest

from katra import _core, _reference

MODULE_SURFACE = ["Position", "perft", "divide", "playouts"]
METHODS = ["initial", "from_text", "text", "copy", "legal_actions", "is_legal", "apply",
           "lap_count", "is_terminal", "outcome", "push", "pop", "zobrist", "__eq__"]
PROPERTIES = ["game_id", "board", "owners", "stores", "to_move", "pending_offer",
              "stack_depth", "move_stack"]
# Attributes of the reference's Position that its rules files work on (the
# core keeps them in its C struct): not part of the surface; and its lap-watching
# hook (docs/backends.md, "Watching the laps"), which the core does not have.
REFERENCE_ONLY = {"spec", "store", "offer", "rules", "apply_watched"}


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


def test_public_names_are_the_documented_surface():
    core = {n for n in dir(_core.Position) if not n.startswith("_")}
    reference = {n for n in dir(_reference.Position) if not n.startswith("_")}
    surface = {n for n in METHODS + PROPERTIES if not n.startswith("_")}
    assert core == surface
    assert reference == surface | REFERENCE_ONLY


@pytest.mark.parametrize("module", [_core, _reference], ids=["core", "reference"])
def test_push_pop_and_the_stack_behave_alike(module):
    pos = module.Position.initial("gore")
    start = pos.text()
    pos.push(2)
    pos.push(pos.legal_actions()[0])
    assert pos.stack_depth == 2 and pos.move_stack[0] == 2
    bare, full = pos.copy(stack=False), pos.copy()
    assert (bare.stack_depth, bare.move_stack, bare.text()) == (0, [], pos.text())
    assert full.move_stack == pos.move_stack
    with pytest.raises(IndexError):
        bare.pop()
    assert full.pop() == pos.move_stack[1] and full.pop() == 2 and full.text() == start
    assert pos.stack_depth == 2  # the copy's pops left the original alone


def test_classmethods_on_both():
    for module in (_core, _reference):
        for name in ("initial", "from_text"):
            assert isinstance(inspect.getattr_static(module.Position, name), classmethod) or \
                inspect.ismethod(getattr(module.Position, name)), (module.__name__, name)
