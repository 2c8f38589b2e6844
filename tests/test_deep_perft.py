"""Perft and divide at the depth ceiling (MAX_PERFT_DEPTH) on forced lines, in
threads with the smallest stack Python allows: the core keeps its own stack of
per-ply frames on the heap, so depth never costs C stack.

A player holding exactly one seed always has exactly one legal move in the Katro
family (docs/rules.md §2.2: the single non-empty hole of the outermost non-empty
row; the seed lands in an empty hole, so the move ends, §2.3), and the seed runs
round its player's path forever: with one seed a side the tree is one line.
"""
import threading

import pytest

import katra
import katra._core as core
import katra._reference as reference
from katra._games import MAX_PERFT_DEPTH

FORCED_LINES = [
    "katro 1,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,1 S",
    "katro-4x4 0,0,0,0/0,1,0,0/0,0,0,0/1,0,0,0 N",
]
SMALL_STACK = 32 * 1024


def in_small_stack_thread(job):
    """Run job() in a thread with a 32 KiB stack; its result (or its exception)."""
    outcome = {}

    def run():
        try:
            outcome["value"] = job()
        except BaseException as exc:  # handed to the caller below
            outcome["error"] = exc

    old = threading.stack_size(SMALL_STACK)
    try:
        thread = threading.Thread(target=run)
        thread.start()
    finally:
        threading.stack_size(old)
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@pytest.mark.parametrize("text", FORCED_LINES, ids=lambda t: t.split()[0])
def test_forced_line_is_one_line(impl, text):
    position = impl.Position.from_text(text)
    assert len(position.legal_actions()) == 1
    assert impl.perft(position, 60) == 1


@pytest.mark.parametrize("text", FORCED_LINES, ids=lambda t: t.split()[0])
def test_core_perft_and_divide_at_the_ceiling_in_a_small_stack_thread(text):
    position = core.Position.from_text(text)
    (only,) = position.legal_actions()
    depth = MAX_PERFT_DEPTH
    assert in_small_stack_thread(lambda: core.perft(position, depth)) == 1
    assert in_small_stack_thread(lambda: core.divide(position, depth)) == [(only, 1)]
    assert position.text() == text


@pytest.mark.parametrize("text", FORCED_LINES, ids=lambda t: t.split()[0])
def test_state_perft_at_the_ceiling_in_a_small_stack_thread(text):
    state = katra.State.from_text(text)
    assert in_small_stack_thread(lambda: state.perft(MAX_PERFT_DEPTH)) == 1
    assert list(in_small_stack_thread(lambda: state.divide(MAX_PERFT_DEPTH)).values()) == [1]


def test_reference_agrees_at_the_ceiling():
    for text in FORCED_LINES:
        assert reference.perft(reference.Position.from_text(text), MAX_PERFT_DEPTH) == 1
