"""Fuzz test of the public API: seeded random sequences of calls with wrong types,
out-of-range values, mutated position texts and records, and odd buffers.

Every call must either succeed or raise a documented exception (``ValueError``
and its subclasses; ``TypeError`` where docs/api.md says so; ``IndexError``
from ``pop``/``peek`` on an empty stack), and a failed call must leave the
state as it was (text, move stack, hash and ply).  Successful calls are
checked against a model: a push adds exactly one plain-int action, a pop
removes it, read-only calls change nothing.

The number of cases is fixed (``KATRA_FUZZ_CASES``, default 300), so a run
never depends on the machine's speed; ``pytest -m fuzz`` runs a long
campaign (``KATRA_FUZZ_LONG_CASES``, default 5,000) with other seeds.  See
docs/fuzzing.md.
"""
from __future__ import annotations

import enum
import math
import os
import pickle
import random
from array import array

import numpy as np
import pytest

import katra
from helpers import BACKENDS, random_walk
from katra import IllegalMoveError, KatraError, PositionError, State, UnknownGameError
from katra._games import GAME_IDS

CASES = int(os.environ.get("KATRA_FUZZ_CASES", "300"))
LONG_CASES = int(os.environ.get("KATRA_FUZZ_LONG_CASES", "5000"))
CALLS_PER_CASE = 25


class Move(enum.IntEnum):
    A1 = 0
    B1 = 1
    C1 = 2


# ---------------------------------------------------------------- values

def mutate_text(text: str, rng: random.Random) -> str:
    """A position text (or record) with one to three random edits."""
    alphabet = " ,/=SNxa-0123456789owfersNS\t\n\x00é+:;"
    for _ in range(rng.randint(1, 3)):
        how = rng.randrange(9)
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randint(1, 8))
        if how == 0:
            text = text[:i] + text[j:]
        elif how == 1:
            text = text[:i] + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) \
                + text[i:]
        elif how == 2:
            number = rng.choice(["-1", "0", "999", "1001", "9" * rng.choice([10, 40, 5000]),
                                 "2.5", "0x10", "+3", "٣", ""])
            text = text[:i] + number + text[j:]
        elif how == 3:
            text = text[:i]
        elif how == 4:
            parts = text.split(" ")
            parts.insert(rng.randrange(len(parts) + 1), rng.choice(parts))
            text = " ".join(parts)
        elif how == 5:
            parts = text.split(" ")
            parts[0] = rng.choice((*GAME_IDS, "katro 6x6", "Goré", "", "chess"))
            text = " ".join(parts)
        elif how == 6:
            text = text.upper() if rng.random() < 0.5 else text.swapcase()
        elif how == 7 and len(text) > 1:
            k = rng.randrange(len(text) - 1)
            text = text[:k] + text[k + 1] + text[k] + text[k + 2:]
        else:
            text = text + rng.choice([" stores=1,2", " offer=a1", " owners=NNNN/SSSS", "  ",
                                      " x=1", " offer=", " stores=0,0,0"])
    return text


def random_value(rng: random.Random, state: State) -> object:
    """A move-like value: legal, illegal, out of range or of a wrong type."""
    legal = state.legal_actions()
    num = state.game.num_actions
    kind = rng.randrange(16)
    if kind == 0 and legal:
        return rng.choice(legal)
    if kind == 1 and legal:
        return state.action_text(rng.choice(legal))
    if kind == 2:
        return rng.randint(-3, num + 3)
    if kind == 3:
        return rng.choice([1, -1]) * 10 ** rng.choice([10, 19, 30, 400])
    if kind == 4:
        return rng.choice([0.0, 2.0, -1.5, math.nan, math.inf, 1e300, 2 + 0j])
    if kind == 5:
        return rng.choice([None, True, False, object(), State, katra.game("gore"), state])
    if kind == 6:
        return rng.choice(list(Move))
    if kind == 7:
        dtype = rng.choice([np.int8, np.int64, np.uint64, np.float64, np.bool_, np.int32])
        return dtype(rng.randint(0, 3))
    if kind == 8:
        return rng.choice([np.array([1, 2]), np.array(1), np.array([]), np.zeros((2, 2)),
                           np.array(["a1"])])
    if kind == 9:
        return "".join(rng.choice("abc123+-: ,offerpassacceptdecline\x00é")
                       for _ in range(rng.randint(0, 10)))
    if kind == 10 and legal:
        return mutate_text(state.action_text(rng.choice(legal)), rng)
    if kind == 11:
        return rng.choice(["1" * 5000, "a" + "1" * 5000, "offer:" + "a1," * 2000, "c1" * 3000])
    if kind == 12:
        return rng.choice([b"c1", bytearray(b"a1"), memoryview(b"a1")])
    if kind == 13:
        return rng.choice([[0], (0,), {0}, {"a1": 0}, [], range(3)])
    if kind == 14:
        return rng.choice(["pass", "accept", "decline", "offer:a1", "offer:a1,b1,c1,d1",
                           "a1+", "a1-", "c2+", "", " "])
    return rng.randint(0, max(0, num - 1))


def random_buffer(rng: random.Random, size: int) -> object:
    """A buffer for ``out=``: right or wrong size, type, layout or mutability."""
    wrong = size + rng.choice([-1, 1, size]) if rng.random() < 0.3 else size
    kind = rng.randrange(12)
    if kind == 0:
        return None
    if kind == 1:
        return bytearray(max(0, wrong))
    if kind == 2:
        return array(rng.choice("bBhHiIlLqQfd"), [0] * max(0, wrong))
    if kind == 3:
        dtype = rng.choice([np.int8, np.uint8, np.int16, np.int32, np.int64, np.float32,
                            np.float64, np.bool_, np.uint64])
        return np.zeros(max(0, wrong), dtype=dtype)
    if kind == 4:
        return np.zeros((2, max(1, wrong)), dtype=np.int32)[:, ::2]  # not contiguous
    if kind == 5:
        return bytes(max(0, wrong))  # read-only
    if kind == 6:
        return np.zeros(max(0, wrong), dtype=np.complex128)  # unsupported item type
    if kind == 7:
        return rng.choice([[0] * size, "x" * size, 5, object()])  # not buffers
    if kind == 8:
        return memoryview(bytearray(max(0, wrong))).toreadonly()
    if kind == 9:
        return np.zeros(max(0, wrong), dtype=">i4")  # big-endian
    if kind == 10:
        return np.zeros((max(1, wrong), 1), dtype=np.float64)  # 2-D, contiguous
    return array("d", [0.0] * max(0, wrong))


# ---------------------------------------------------------------- the harness

# TypeError is documented only for buffers, batches of states and records.
VALUE = (ValueError,)
VALUE_OR_TYPE = (ValueError, TypeError)


def snapshot(state: State) -> tuple[object, ...]:
    return (state.text(), state.move_stack, state.hash, state.ply)


class Case:
    """One random sequence of calls on one state."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        game_id = self.rng.choice(GAME_IDS)
        self.backend = self.rng.choice(BACKENDS)
        start = katra.game(game_id).initial_state(backend=self.backend)
        self.state = random_walk(start, self.rng.randrange(40), seed)
        self.where = f"seed {seed}"

    def expect(self, call, allowed=VALUE, *, changes=False):
        """Run ``call()``; a failure must be ``allowed`` and change nothing."""
        before = snapshot(self.state)
        try:
            result = call()
        except allowed as exc:
            assert str(exc), (self.where, "an error must say what was wrong")
            assert snapshot(self.state) == before, (self.where, exc)
            return exc
        except Exception as exc:
            raise AssertionError(f"{self.where}: undocumented {type(exc).__name__}: {exc}") \
                from exc
        if not changes:
            assert snapshot(self.state) == before, self.where
        return result

    # -- the operations, picked at random
    def op_push(self) -> None:
        value = random_value(self.rng, self.state)
        before = snapshot(self.state)
        legal_before = self.state.is_legal(value)
        result = self.expect(lambda: self.state.push(value), changes=True)
        if isinstance(result, Exception):
            assert isinstance(result, IllegalMoveError) and not legal_before, self.where
            return
        assert legal_before, (self.where, value)
        stack = self.state.move_stack
        assert stack[:-1] == before[1] and type(stack[-1]) is int, self.where
        assert self.state.ply == before[3] + 1

    def op_pop(self) -> None:
        before = snapshot(self.state)
        result = self.expect(self.state.pop, IndexError, changes=True)
        if isinstance(result, IndexError):
            assert before[1] == [], self.where
            return
        assert type(result) is int and result == before[1][-1], self.where
        assert self.state.move_stack == before[1][:-1]

    def op_peek(self) -> None:
        result = self.expect(self.state.peek, IndexError)
        if not isinstance(result, IndexError):
            assert result == self.state.move_stack[-1]

    def op_is_legal(self) -> None:
        value = random_value(self.rng, self.state)
        # never raises, for anything at all
        legal = self.expect(lambda: self.state.is_legal(value), ())
        member = self.expect(lambda: value in self.state.legal_moves, ())
        assert legal is member and type(legal) is bool, (self.where, value)

    def op_parse_and_name(self) -> None:
        value = random_value(self.rng, self.state)
        action = self.expect(lambda: self.state.parse_move(value))
        if not isinstance(action, Exception):
            assert action in self.state.legal_actions()
        self.expect(lambda: self.state.action_text(value))
        self.expect(lambda: self.state.game.parse_action(value))

    def op_child_and_copy(self) -> None:
        value = random_value(self.rng, self.state)
        self.expect(lambda: self.state.child(value))
        stack = self.rng.random() < 0.5
        clone = self.expect(lambda: self.state.copy(stack=stack))
        assert clone == self.state and clone.ply == self.state.ply
        assert clone.move_stack == (self.state.move_stack if stack else [])

    def op_from_text(self) -> None:
        text = mutate_text(self.state.text(), self.rng)
        results = []
        for backend in BACKENDS:
            result = self.expect(lambda backend=backend: State.from_text(text, backend=backend))
            if isinstance(result, Exception):
                assert isinstance(result, PositionError), (self.where, text, result)
                results.append("error")
            else:
                assert State.from_text(result.text(), backend=backend) == result
                results.append(result.text())
        assert results[0] == results[1], (self.where, text)  # the backends agree
        ply = self.rng.choice([0, 3, -1, 1.5, True, None, "2", 10**30])
        self.expect(lambda: State.from_text(self.state.text(), ply=ply))

    def op_names(self) -> None:
        value = random_value(self.rng, self.state)
        self.expect(lambda: katra.game(value))
        self.expect(lambda: State(value, backend=self.rng.choice((*BACKENDS, "nope", None))))
        self.expect(lambda: self.state.game.initial_state(backend=value))

    def op_jobs(self) -> None:
        depth = self.rng.choice([0, 1, 2, -1, 1.5, "2", None, True, 10**30, 501])
        self.expect(lambda: self.state.perft(depth))
        self.expect(lambda: self.state.divide(depth))
        self.expect(lambda: katra.perft(self.state, depth))
        games = self.rng.choice([0, 1, 3, -1, 2.0, None, "3"])
        seed = self.rng.choice([0, 7, -1, 2**64, 2**64 - 1, 1.5, None])
        max_plies = self.rng.choice([0, 1, 50, -1, 2.5, None, "9"])
        self.expect(lambda: katra.playouts(self.state, games, seed=seed, max_plies=max_plies))
        self.expect(lambda: katra.perft(mutate_text(self.state.text(), self.rng), 1))

    def op_search(self) -> None:
        depth = self.rng.choice([1, 2, 0, 65, -1, 2.5, "2", True, None])
        time = self.rng.choice([None, None, 10**400, math.nan, -1.0, 0, "1", True, 10**7])
        if depth is None and time is None:
            time = -1.0  # no clock-driven searches: the run must not depend on speed
        result = self.expect(lambda: katra.search(self.state, depth=depth, time=time))
        if not isinstance(result, Exception):
            assert result.best_action in self.state.legal_actions()

    def op_buffers(self) -> None:
        game = self.state.game
        out = random_buffer(self.rng, game.observation_size)
        self.expect(lambda: self.state.observation(out=out), VALUE_OR_TYPE)
        out = random_buffer(self.rng, game.num_actions)
        self.expect(lambda: self.state.legal_actions_mask(out=out), VALUE_OR_TYPE)
        batch = [self.state, self.state.copy()]
        if self.rng.random() < 0.3:
            batch.append(self.rng.choice([None, "a1", katra.game("gore").initial_state(),
                                          katra.game("katro").initial_state()]))
        out = random_buffer(self.rng, len(batch) * game.observation_size)
        self.expect(lambda: katra.observations(batch, out), VALUE_OR_TYPE)
        out = random_buffer(self.rng, len(batch) * game.num_actions)
        self.expect(lambda: katra.legal_actions_masks(batch, out), VALUE_OR_TYPE)

    def op_records(self) -> None:
        record = self.expect(self.state.record)
        again = State.from_record(record, backend=self.backend)
        assert snapshot(again) == snapshot(self.state), self.where
        broken = mutate_text(record, self.rng)
        self.expect(lambda: katra.read_records(broken))
        self.expect(lambda: State.from_record(broken))
        self.expect(lambda: katra.read_records(self.rng.choice([None, b"start:", 3])),
                    VALUE_OR_TYPE)
        things = self.rng.choice([[self.state], [None], [self.state, 1], "x", None, [record]])
        self.expect(lambda: katra.write_records(things), VALUE_OR_TYPE)

    def op_display(self) -> None:
        size = self.rng.choice([48, 8, 1024, 0, -5, 7, 1025, 2.5, "48", None, True])
        self.expect(lambda: self.state.svg(size=size))
        self.expect(lambda: (str(self.state), repr(self.state), self.state._repr_svg_()))
        clone = pickle.loads(pickle.dumps(self.state))
        assert clone == self.state and clone.ply == self.state.ply

    OPS = ["op_push"] * 6 + ["op_pop"] * 3 + [
        "op_peek", "op_is_legal", "op_is_legal", "op_parse_and_name", "op_child_and_copy",
        "op_from_text", "op_from_text", "op_names", "op_jobs", "op_search", "op_buffers",
        "op_records", "op_display"]

    def run(self) -> None:
        for _ in range(CALLS_PER_CASE):
            getattr(self, self.rng.choice(self.OPS))()
        # the state is still whole: it reads back and undoes to its start
        s = self.state
        assert State.from_text(s.text(), backend=self.backend).hash == s.hash
        depth = len(s.move_stack)
        root = s.root()
        assert root.ply == s.ply - depth and root.move_stack == []


def run_cases(seeds: range) -> None:
    for seed in seeds:
        Case(seed).run()


def test_random_call_sequences_raise_only_documented_errors():
    run_cases(range(CASES))


@pytest.mark.fuzz
def test_long_fuzz_campaign():
    run_cases(range(10**6, 10**6 + LONG_CASES))


def test_the_harness_rejects_undocumented_errors():
    case = Case(0)
    with pytest.raises(AssertionError, match="undocumented OverflowError"):
        case.expect(lambda: math.exp(1000))
    with pytest.raises(AssertionError, match="undocumented TypeError"):
        case.expect(lambda: len(5))  # TypeError only where the caller allows it
    with pytest.raises(AssertionError):
        case.expect(lambda: case.state.push(case.state.legal_actions()[0]))  # changed it


def test_known_error_classes_are_value_errors():
    for cls in (KatraError, IllegalMoveError, PositionError, UnknownGameError):
        assert issubclass(cls, ValueError)
