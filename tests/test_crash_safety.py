"""Nothing reachable from Python crashes the interpreter.

* ``Position(data)`` (both backends) checks its ``PositionData`` exactly as
  ``from_text`` checks a text: one validation, ``katra._text.check_position``;
* the search keeps its per-ply lists on the heap, so its deepest iteration
  (64 plies) runs in a thread with the smallest stack Python allows;
* other private entry points: odd search arguments, a bare ``__new__``,
  ``__init__`` called twice, pickles, the tables builder.

Calls that could crash run in a subprocess, so a crash fails one test
instead of killing the run.
"""
import pickle

import pytest
from hypothesis import strategies as st

import katra
from helpers import SMALL_STACK, check_examples, quick_and_slow, run_python
from katra import _core
from katra._errors import PositionError
from katra._games import GAME_IDS, GAMES, GORE_OFFER_BASE, GORE_PASS, MAX_TOTAL_SEEDS
from katra._text import PositionData, format_position, initial_data, parse_position

#: Each side has one seed, so each has exactly one move, for ever: the search
#: reaches ply 64 in a few thousand nodes (docs/rules.md §2: a lone seed lands
#: in an empty hole and the move ends).
LONE_SEEDS = "katro 1,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/1,0,0,0,0,0 S"
#: The same on a variant's board, whose halves read their shape at run time.
VARIANT_LONE_SEEDS = "katro-6x5-s1 1,0,0,0,0/0,0,0,0,0/0,0,0,0,0/0,0,0,0,0/0,0,0,0,0/1,0,0,0,0 S"


# ---------------------------------------------------------------- Position(data)

def data(game_id="katro", **changes):
    """The start position of game_id as PositionData, with some fields replaced."""
    d = initial_data(GAMES[game_id])
    for key, value in changes.items():
        setattr(d, key, value)
    return d


KATRO_HOLES = GAMES["katro"].holes
BAD_DATA = {
    "too-short board": data(board=[2] * (KATRO_HOLES - 1)),
    "too-long board": data(board=[2] * (KATRO_HOLES + 1)),
    "empty board": data(board=[]),
    "board not a list": data(board="2" * KATRO_HOLES),
    "negative count": data(board=[-1] + [2] * (KATRO_HOLES - 1)),
    "float count": data(board=[2.0] * KATRO_HOLES),
    "bool count": data(board=[True] * KATRO_HOLES),
    "huge count": data(board=[10**30] + [0] * (KATRO_HOLES - 1)),
    "count beyond C int": data(board=[2**31] + [0] * (KATRO_HOLES - 1)),
    "too many seeds": data(board=[MAX_TOTAL_SEEDS // KATRO_HOLES + 1] * KATRO_HOLES),
    "to_move 2": data(to_move=2),
    "to_move -1": data(to_move=-1),
    "to_move bool": data(to_move=True),
    "to_move str": data(to_move="S"),
    "stores in a game without": data(stores=[1, 0]),
    "negative store": data("gore", stores=[-6, 0]),
    "three stores": data("gore", stores=[0, 0, 0]),
    "stores too many seeds": data("djenon-aboure", stores=[MAX_TOTAL_SEEDS, 0]),
    "owner 2": data("gore", owners=[2] + [0] * 7),
    "owner -1": data("gore", owners=[-1] + [0] * 7),
    "short owners": data("gore", owners=[0] * 7),
    "owners changed in katro": data(owners=[1] * KATRO_HOLES),
    "offer in katro": data(offer=1),
    "offer mask 256": data("gore", stores=[6, 0], to_move=0, offer=256),
    "offer negative": data("gore", offer=-1),
    "offer of 4 holes": data("gore", stores=[24, 24], to_move=0, offer=0b11110000),
    "offer of the mover's hole": data("gore", stores=[6, 6], to_move=0, offer=0b1),
    "offer too dear": data("gore", stores=[5, 5], to_move=0, offer=0b10000),
    "spec None": data(spec=None),
    "spec of an unknown game": data(spec=GAMES["katro"].__class__(
        "katro-9x9", "K", "katro", 9, 9, 2, 81, False, False)),
    "spec with a known id but other fields": data(spec=GAMES["katro"].__class__(
        "katro", "Katro", "katro", 2, 2, 2, 4, False, False)),
}


@pytest.mark.parametrize("case", list(BAD_DATA))
def test_position_from_bad_data_raises_position_error(impl, case):
    with pytest.raises(PositionError):
        impl.Position(BAD_DATA[case])


@pytest.mark.parametrize("bad", [None, "katro", 3, object(), {"board": []}])
def test_position_needs_position_data(impl, bad):
    with pytest.raises(PositionError):
        impl.Position(bad)


def test_position_init_again_with_bad_data_changes_nothing():
    position = _core.Position.from_text("gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS")
    position.push(0)
    text = position.text()
    with pytest.raises(PositionError):
        position.__init__(BAD_DATA["too-short board"])
    assert position.text() == text and position.stack_depth == 1
    # a good __init__ starts afresh: nothing of the old position is left to pop
    position.__init__(data("katro"))
    assert position.text() == _core.Position.initial("katro").text()
    assert position.stack_depth == 0
    with pytest.raises(IndexError):
        position.pop()


@st.composite
def raw_data(draw):
    """PositionData whose text form says exactly what it holds (valid or not)."""
    spec = GAMES[draw(st.sampled_from(GAME_IDS))]
    counts = st.integers(-2, 60)
    board = draw(st.lists(counts, min_size=spec.holes, max_size=spec.holes))
    stores = draw(st.lists(counts, min_size=2, max_size=2)) if spec.has_stores else [0, 0]
    owners = (draw(st.lists(st.integers(0, 1), min_size=8, max_size=8))
              if spec.has_owners else spec.initial_owners())
    offer = draw(st.integers(0, 255)) if spec.has_owners else 0
    return PositionData(spec, board, draw(st.integers(0, 1)), stores, owners, offer)


def data_checked_as_text(d):
    """Position(data) succeeds exactly when from_text(its text) does, with the same result."""
    text = format_position(d)
    for backend in (_core, katra._reference):
        try:
            expected = backend.Position.from_text(text).text()
        except PositionError:
            expected = "error"
        try:
            got = backend.Position(d).text()
        except PositionError:
            got = "error"
        assert got == expected, (text, backend.__name__)


@pytest.mark.parametrize("examples", quick_and_slow(100, 400))
def test_position_data_is_checked_exactly_as_its_text(examples):
    check_examples(data_checked_as_text, examples, raw_data())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_position_from_parsed_data_equals_from_text(impl, game_id):
    text = impl.Position.initial(game_id).text()
    assert impl.Position(parse_position(text)) == impl.Position.from_text(text)


def test_gore_offer_from_data():
    text = "gore 6,6,6,6/6,6,6,6 S stores=0,6 owners=NNNN/SSSS"
    position = _core.Position.from_text(text)
    offer = next(a for a in position.legal_actions() if GORE_OFFER_BASE <= a < GORE_PASS)
    position.apply(offer)
    again = _core.Position(parse_position(position.text()))
    assert again == position and again.pending_offer == offer - GORE_OFFER_BASE


# ---------------------------------------------------------------- other entry points

def test_the_tables_cannot_be_rebuilt_from_python():
    assert not hasattr(_core, "_build_tables")


def test_a_bare_position_is_a_valid_empty_katro_board():
    position = _core.Position.__new__(_core.Position)
    assert position.text() == "katro " + "/".join(["0,0,0,0,0,0"] * 6) + " S"
    assert position.legal_actions() == [] and position.outcome() == (1, 0, 0)
    assert _core.perft(position, 3) == 0


def test_pickles_are_read_through_from_text():
    function, _args = _core.Position.initial("katro").__reduce__()
    assert function == _core.Position.from_text
    forged = pickle.dumps(_core.Position.initial("katro")).replace(b"katro 2,2", b"katro 2,x")
    with pytest.raises(PositionError):
        pickle.loads(forged)
    assert not hasattr(_core.Position, "__setstate__")


BAD_SEARCH_ARGS = [
    {"depth": 0}, {"depth": 65}, {"depth": -1}, {"depth": True}, {"depth": 2.0},
    {"depth": 10**30}, {"time_seconds": 0}, {"time_seconds": -1.0},
    {"time_seconds": float("nan")}, {"time_seconds": float("inf")},
    {"time_seconds": 10**400}, {"time_seconds": 10**6 + 1}, {"time_seconds": "1"},
    {"depth": None, "time_seconds": None}, {"depth": 2, "tt_bits": 29},
    {"depth": 2, "tt_bits": -1}, {"depth": 2, "tt_bits": True}, {"depth": 2, "tt_bits": 1.5},
]


@pytest.mark.parametrize("kwargs", BAD_SEARCH_ARGS, ids=[repr(k)[:40] for k in BAD_SEARCH_ARGS])
def test_core_search_rejects_odd_arguments(kwargs):
    position = _core.Position.initial("katro")
    with pytest.raises(ValueError):
        _core.search(position, **kwargs)
    assert position == _core.Position.initial("katro")


@pytest.mark.parametrize("kwargs", [{"depth": 65}, {"time": 10**400}, {"time": float("nan")},
                                    {"time": 10**7}, {"depth": 0}])
def test_api_search_rejects_odd_arguments(kwargs):
    with pytest.raises(ValueError):
        katra.search("katro", **kwargs)


def test_search_accepts_the_longest_clock():
    # an upper bound: the search ends at its deepest iteration, long before the clock
    assert katra.search(LONE_SEEDS, time=10**6).depth == 64


@pytest.mark.parametrize("bad", [None, "katro", 3, katra.game("katro").initial_state()])
def test_core_search_needs_a_position(bad):
    with pytest.raises(ValueError):
        _core.search(bad, 2)


def test_core_search_refuses_a_finished_game():
    with pytest.raises(ValueError, match="finished"):
        _core.search(_core.Position.__new__(_core.Position), 3)


# ---------------------------------------------------------------- small thread stacks

@pytest.mark.parametrize("lone_seeds", [LONE_SEEDS, VARIANT_LONE_SEEDS])
def test_search_at_its_deepest_runs_in_a_32_kib_thread(lone_seeds):
    rc, out, err = run_python(f"""
        import threading, katra
        from katra import _core
        threading.stack_size({SMALL_STACK})
        results = []
        def work():
            results.append(katra.search({lone_seeds!r}, depth=64))
            results.append(katra.search({lone_seeds!r}, time=60))
            results.append(_core.search(_core.Position.from_text({lone_seeds!r}), 64, tt_bits=0))
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        api, timed, raw = results
        print(api.depth, len(api.pv), timed.depth, raw["depth"], len(raw["pv"]))
    """)
    assert rc == 0, err[-2000:]
    assert out.split() == ["64"] * 5      # every iteration to 64 plies, the PV that long


def test_search_in_small_threads_matches_the_main_thread():
    expected = katra.search("katra-mpantsaka", depth=5)
    rc, out, err = run_python(f"""
        import threading, katra
        threading.stack_size({SMALL_STACK})
        results = []
        thread = threading.Thread(
            target=lambda: results.append(katra.search("katra-mpantsaka", depth=5)))
        thread.start()
        thread.join()
        r = results[0]
        print(r.best_action, r.score, r.nodes)
    """)
    assert rc == 0, err[-2000:]
    assert out.split() == [str(expected.best_action), str(expected.score), str(expected.nodes)]
