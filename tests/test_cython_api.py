"""katra's C API for search written in Cython (docs/cython.md), built against the installed katra.

The example of examples/cython_perft (perft and negamax over the API) and this
test's own extension (tests/cython_api: every function of the API on one
node) are built in a temporary folder with the command docs/cython.md gives
(``pip install --no-build-isolation``), then compared with katra.perft,
katra.search and katra.State on every game: start positions, seeded
mid-game positions and positions of more than 255 seeds (the 16-bit halves
on boards of at most 12 holes a player, else the int form), each also on
every working form (``on_every_form``: every node made on the variants'
halves, on the 16-bit halves, then on the int form).

Building needs a C compiler, Cython and setuptools.  Where they are missing the
tests fail, unless KATRA_CYTHON_API_TESTED_ELSEWHERE=1 says another run builds
and tests the API (CI's main run has no compiler; the last block of .ci/run
runs this file in an environment that has one).
"""
import os
import random
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import katra
from helpers import build_tools_missing, on_every_form, position_text, random_walk
from katra._games import DJENON, GAME_IDS, GORE, game_by_id

pytestmark = pytest.mark.xdist_group("cython_api")  # one build, in one worker

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "cython_perft"
CHECKER = Path(__file__).resolve().parent / "cython_api"
ELSEWHERE = "KATRA_CYTHON_API_TESTED_ELSEWHERE"

#: perft depths checked from each start position (leaf counts up to about 10**5)
START_DEPTHS = {"katro": 5, "katro-4x6": 5, "katro-4x4": 6, "katra-mpantsaka": 4,
                "katra-mpantsaka-simplified": 3, "gore": 7, "djenon-aboure": 6,
                "katro-4x5-s3": 5, "katro-6x3-s2": 5, "katra-mpantsaka-simplified-4x3-s3": 4,
                "gore-2x3-s5": 7, "djenon-aboure-2x8-s3": 5}

#: a variant of every family (docs/rules.md §7: the int form only)
VARIANT_IDS = ("katro-4x5-s3", "katro-6x3-s2", "katra-mpantsaka-simplified-4x3-s3",
               "gore-2x3-s5", "djenon-aboure-2x8-s3")


MISSING = build_tools_missing()
if MISSING and os.environ.get(ELSEWHERE):
    pytest.skip(f"this environment lacks {MISSING}; {ELSEWHERE} says another run builds "
                "the C API's extensions",
                allow_module_level=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the example module, the checker module), built against the installed katra."""
    if MISSING:
        pytest.fail(f"the C API's tests build Cython extensions and need {MISSING}: install "
                    f"them, or set {ELSEWHERE}=1 where another run tests the build (.ci/run)")
    work = tmp_path_factory.mktemp("cython_api")
    lib = work / "lib"
    for source in (EXAMPLE, CHECKER):
        copy = work / source.name
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns(
            "build", "*.c", "*.so", "*.pyd", "*.egg-info", "__pycache__"))
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                               "--no-deps", "--no-index", "--target", str(lib), str(copy)],
                              capture_output=True, text=True)
        assert done.returncode == 0, f"building {source.name} failed:\n{done.stdout}{done.stderr}"
    sys.path.insert(0, str(lib))
    try:
        import capi_check
        import cython_perft
    finally:
        sys.path.remove(str(lib))
    return cython_perft, capi_check


@pytest.fixture
def example(built):
    return built[0]


@pytest.fixture
def check(built):
    return built[1]


def mid_game(game_id, plies, seed):
    """The text of a seeded random game's position after up to plies plies."""
    return random_walk(katra.State(game_id), plies, seed).text()


def many_seeds(game_id, total, seed):
    """A position of total seeds spread at random over the holes (South to move)."""
    holes = game_by_id(game_id).holes
    rng = random.Random(seed)
    board = [0] * holes
    for _ in range(total):
        board[rng.randrange(holes)] += 1
    return position_text(game_id, board)


def positions(game_id):
    """Positions of every kind for one game, as texts: start, mid-game, 300 seeds."""
    return [katra.State(game_id).text(), mid_game(game_id, 9, 1), mid_game(game_id, 30, 2),
            many_seeds(game_id, 300, 3)]


# ---------------------------------------------------------------- the example

@pytest.mark.parametrize("game_id", GAME_IDS + VARIANT_IDS)
def test_example_perft_from_the_start(example, game_id):
    state = katra.State(game_id)
    for depth in range(START_DEPTHS[game_id] + 1):
        assert example.perft(state.text(), depth) == katra.perft(state, depth, jobs=1), depth


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_example_perft_mid_game_and_beyond_the_lanes(example, game_id):
    for text in (mid_game(game_id, 9, 1), mid_game(game_id, 30, 2)):
        for depth in (1, 2, 3):
            assert example.perft(text, depth) == katra.perft(text, depth, jobs=1), (text, depth)
    text = many_seeds(game_id, 300, 3)      # more than 255 seeds: the 16-bit halves or the int form
    for depth in (1, 2):
        assert example.perft(text, depth) == katra.perft(text, depth, jobs=1), (text, depth)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_example_perft_on_the_state_form(example, game_id):
    state = katra.State(game_id)
    for depth in (1, 2, 3):
        assert (on_every_form(example.perft, state.text(), depth)
                == katra.perft(state, depth, jobs=1)), depth


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_example_negamax_finds_katra_search_s_score_and_move(example, game_id):
    for text in (katra.State(game_id).text(), mid_game(game_id, 9, 4)):
        result = katra.search(text, depth=3)
        assert example.negamax(text, 3) == (result.score, result.best_action), text
    result = katra.search(game_id, depth=2)
    assert (on_every_form(example.negamax, katra.State(game_id).text(), 2)
            == (result.score, result.best_action))


def test_threads_walk_their_own_nodes_at_once(example):
    """The contract of docs/cython.md: nodes are values, the functions pure, so
    threads may call them at once without the GIL (the example's perft
    releases it): every game's count, four times over, on four threads."""
    jobs = [(katra.State(game_id).text(), START_DEPTHS[game_id] - 1) for game_id in GAME_IDS] * 4
    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(lambda job: example.perft(*job), jobs))
    assert counts == [katra.perft(text, depth, jobs=1) for text, depth in jobs]


def test_example_rejects_bad_input(example):
    with pytest.raises(katra.PositionError):
        example.perft("katro 1,2,3 S", 2)
    with pytest.raises(katra.PositionError):
        example.negamax("not a position", 2)
    with pytest.raises(ValueError, match="over"):
        example.negamax("katro-4x4 0,0,0,0/0,2,0,0/0,0,0,0/0,0,0,0 S", 2)


# ---------------------------------------------------------------- every function

def expected_facts(text):
    """What the API must answer for a position, from katra.State."""
    state = katra.State.from_text(text)
    spec = game_by_id(state.game.id)
    outcome = state.outcome()
    children = []
    for action in state.legal_actions():
        state.push(action)
        children.append((action, state.text(), state.hash))
        state.pop()
    if spec.family in (GORE, DJENON):
        material = tuple(state.stores)
    else:
        material = tuple(sum(seeds for seeds, owner in zip(state.board, state.owners)
                             if owner == p) for p in (0, 1))
    # a variant's index: the next free one when the process first made a position of it
    game = GAME_IDS.index(spec.id) if spec.named else None
    return {"game": game, "legal_count": len(children),
            "legal_actions": [a for a, _, _ in children], "over": int(state.is_terminal()),
            "outcome": 0 if outcome is None else (
                -1 if outcome.winner is None else outcome.winner, *outcome.scores),
            "to_move": state.to_move, "material": material, "zobrist": state.hash,
            "text": text}, children


def check_facts(check, text):
    want, children = expected_facts(text)
    got = check.facts(text)
    if want["game"] is None:        # a variant: an index past the named games', one per game
        want["game"] = check.facts(katra.State(text.split()[0]).text())["game"]
        assert len(GAME_IDS) <= want["game"] < 255, text
    assert {k: got[k] for k in want} == want, text
    assert [(a, t, z) for a, t, _, z in got["children"]] == children, text
    for _, child_text, child_key, _ in got["children"]:   # the same key however made
        assert check.facts(child_text)["key"] == child_key, child_text
    assert isinstance(got["state"], katra.State) and got["state"].text() == text
    for backend in ("core", "reference"):                 # katra_from_state
        from_state = check.facts(katra.State.from_text(text, backend=backend))
        assert {k: v for k, v in from_state.items() if k != "state"} == {
            k: v for k, v in got.items() if k != "state"}, (text, backend)
    num_actions = game_by_id(want["text"].split()[0]).num_actions
    for action in range(num_actions):
        child = check.play(text, action)
        legal = [t for a, t, _ in children if a == action]
        assert child == (legal[0] if legal else None), (text, action)


@pytest.mark.parametrize("game_id", GAME_IDS + VARIANT_IDS)
def test_every_function_agrees_with_katra_state(check, game_id):
    for text in positions(game_id):      # on the lanes, then every node on the int form
        on_every_form(check_facts, check, text)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_finished_games(check, game_id):
    state = katra.State(game_id)
    seed = 0
    while not state.is_terminal():        # a seeded game played to its end
        random_walk(state, 1000, seed)
        seed += 1
    check_facts(check, state.text())
    facts = check.facts(state.text())
    assert facts["over"] == 1 and facts["legal_count"] == 0 and facts["children"] == []


def test_the_key_is_not_the_zobrist_hash_but_both_are_functions_of_the_position(check):
    facts = check.facts(katra.State("katro").text())
    assert facts["key"] != facts["zobrist"] == katra.State("katro").hash


def test_nodes_the_api_did_not_make_get_error_values(check):
    errors = (-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0)
    # (forms 3 and 4, the variants' and the 16-bit halves, name their game in
    # their words too: zeroed, game 0)
    for game, form in [(0, 0), (6, 0), (7, 1), (255, 2), (3, 3), (2, 4), (0, 4), (0, 5),
                       (3, 255)]:
        assert check.unmade_node(game, form) == errors, (game, form)
        with pytest.raises(katra.ArgumentError, match="not a node made by katra's C API"):
            check.unmade_text(game, form)


def test_bad_arguments_get_error_values(check):
    for game_id in GAME_IDS:
        assert check.bad_arguments(katra.State(game_id).text()) == (-1,) * 7


def test_conversions_reject_what_is_not_a_position(check):
    with pytest.raises(katra.PositionError):
        check.facts("katro 9,9 S")
    with pytest.raises(katra.ArgumentTypeError, match=r"katra\.State"):
        check.facts(42)
