"""katra's shipped solved-position suites (docs/solved.md), ``katra.testing.solved_suite``
and ``katra.testing.deep_suite``: every ``solve`` entry re-solved by the compiled core,
the shallow ones by the brute-force AND/OR search of test_solve.py over the reference
(docs/rules.md §6.3 word for word); every ``prove`` entry re-proven by df-pn, its
proof checked on the reference, and not contradicted by the bounded solver."""
import io

import pytest

import katra
from helpers import BRUTE_PLIES, brute_best, brute_solve, value
from katra._games import GAME_IDS, GAMES
from katra._text import action_text
from katra.testing import SolvedEntry, check_proof, deep_suite, read_solved, solved_suite


def resolve(entry: SolvedEntry) -> None:
    r = katra.solve(entry.position, entry.plies)
    assert (r.outcome, r.max_plies if r.outcome is None else r.plies) == (
        entry.outcome, entry.plies), entry.id
    assert r.best_move == entry.best_move, entry.id
    if entry.outcome is not None and entry.plies > 1:   # nothing is proven one ply sooner
        assert katra.solve(entry.position, entry.plies - 1).outcome is None, entry.id


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_suite_has_every_outcome_it_can(game_id):
    entries = solved_suite(game_id)
    assert 4 <= len(entries) <= 12
    outcomes = {e.outcome for e in entries}
    assert {"win", "loss", None} <= outcomes, game_id
    assert len({(e.outcome, e.plies) for e in entries}) == len(entries), "duplicated values"
    assert all(not katra.State.from_text(e.position).is_terminal() for e in entries)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_core_resolves_every_entry(game_id):
    """Every entry solves within seconds (the generator's bounds), so all run here."""
    for entry in solved_suite(game_id):
        resolve(entry)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_brute_force_confirms_the_shallow_entries(game_id):
    """The independent search over the reference agrees on every entry within its reach."""
    shallow = [e for e in solved_suite(game_id) if e.plies <= BRUTE_PLIES[game_id]]
    assert shallow, game_id
    for entry in shallow:
        outcome, plies = brute_solve(entry.position, entry.plies)
        assert (outcome, plies if outcome else entry.plies) == (entry.outcome, entry.plies), \
            entry.id
        if outcome is not None:
            best = brute_best(entry.position, outcome, plies)
            assert action_text(GAMES[game_id], best) == entry.best_move, entry.id
    value.cache_clear()


def test_aliases_and_unknown_games():
    assert solved_suite("Katro 4x4") == solved_suite("katro-4x4")
    assert deep_suite("Goré") == deep_suite("gore")
    with pytest.raises(katra.UnknownGameError):
        solved_suite("chess")
    with pytest.raises(katra.UnknownGameError):
        deep_suite("chess")


#: How many deep positions each game's suite holds: 4 Katro 4x6, 4 Katro and 2 Goré
#: mid-games of docs/solved.md's 60-second table, none of the others
#: (tools/make_solved_suites.py's DEEP).
DEEP_COUNTS = {"katro-4x6": 4, "katro": 4, "gore": 2}

#: The deep positions whose df-pn proof takes more than a few seconds of CPU (docs/solved.md's
#: deep-suite table: the solve and the proof, up to about 80 s of CPU): in the slow run only;
#: the default run keeps one position of each game.
SLOW_DEEP = {
    "katro-4x6 1,6,1,2,5,6/5,0,3,0,3,1/0,0,1,0,1,0/5,6,0,0,1,1 S",
    "katro-4x6 6,1,0,2,0,2/1,3,0,3,0,0/1,4,1,5,1,0/1,3,0,1,8,5 N",
    "katro 1,2,0,1,2,2/1,5,0,1,3,8/2,0,0,0,0,0/7,6,1,4,0,5/0,1,0,3,0,1/1,0,3,6,1,5 N",
    "katro-4x6 0,2,0,7,1,0/0,1,0,1,5,0/0,3,1,4,5,0/3,3,3,3,3,3 N",
    "katro 1,3,1,0,6,2/1,0,3,1,6,3/7,0,7,0,6,1/4,1,3,1,2,1/0,1,0,1,1,3/1,0,1,3,1,0 N",
    "katro 1,1,0,0,1,1/0,3,0,2,8,1/0,1,3,0,1,0/0,3,9,1,3,0/5,1,6,9,1,1/0,1,0,2,4,3 N",
    "gore 0,6,1,12/25,0,1,1 N stores=2,0 owners=NSNN/SSSS",
}
#: df-pn's node budgets: a few times what the entries took when the suites were made
#: (at most 18 million in the default run, 193 million in the slow one), so a
#: weaker df-pn fails here instead of running for ever.
QUICK_NODES = 100_000_000
SLOW_NODES = 1_000_000_000
#: The bound within which the bounded solver is asked about every deep entry.
SMALL_BOUND = 16
OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_deep_suite_holds_the_60_second_positions(game_id):
    entries = deep_suite(game_id)
    assert len(entries) == DEEP_COUNTS.get(game_id, 0)
    assert len({e.position for e in entries}) == len(entries)
    assert not {e.position for e in entries} & {e.position for e in solved_suite(game_id)}
    for entry in entries:
        assert entry.exact is False and entry.outcome in ("win", "loss", "draw"), entry.id
        assert entry.plies > SMALL_BOUND, entry.id
        state = katra.State.from_text(entry.position)
        assert not state.is_terminal() and state.is_legal(entry.best_move), entry.id


def _deep_params(mark_slow: bool):
    """The deep entries as parameters, those of SLOW_DEEP marked slow if ``mark_slow``."""
    return [pytest.param(entry, id=entry.id, marks=[pytest.mark.slow] if (
                mark_slow and entry.position in SLOW_DEEP) else [])
            for game_id in DEEP_COUNTS for entry in deep_suite(game_id)]


#: The table the deep entries are proven with (tools/make_solved_suites.py's
#: DEEP_TT_BITS): 2**24 entries hold what these searches need, so every proof is
#: written from it at once (with 2**20 the writer searches again for what the table
#: lost, for minutes on the Katro entries).
DEEP_TT_BITS = 24


def reprove(position, nodes, tmp_path):
    """df-pn's result on ``position`` (a 2**DEEP_TT_BITS table, ``nodes`` budget),
    after its proof has passed the reference checker."""
    proof = io.StringIO()
    r = katra.solve(position, nodes=nodes, tt_bits=DEEP_TT_BITS, proof=proof)
    assert r.outcome is not None, f"df-pn settled nothing within {nodes:,} nodes: {position}"
    assert not r.exact and r.plies is not None
    path = tmp_path / "proof.txt"
    path.write_text(proof.getvalue(), encoding="utf-8")
    summary = check_proof(path)
    assert (summary.position, summary.outcome, summary.plies) == (
        position, r.outcome, r.plies)
    return r


@pytest.mark.parametrize("entry", _deep_params(mark_slow=True))
def test_dfpn_reproves_every_deep_entry(entry, tmp_path):
    """df-pn settles the recorded outcome and its proof passes the reference
    checker; after the recorded move of a win or a draw, df-pn
    settles the outcome it keeps for the other side (a loss holds after every move).

    Only the outcome is compared, not the depth: df-pn is deterministic for a
    given build and table (one thread, node budgets, no clock: the same proof on
    every machine), but the depth of its proof follows its search policy (which
    move it expands, its thresholds), which the project keeps improving, and a
    deeper or shallower proof contradicts nothing.  The recorded ``WITHIN`` is the
    depth df-pn proved when tools/make_solved_suites.py wrote the file (and of
    the proof it checked on the reference then); the outcome is a value
    of the game and cannot move."""
    nodes = SLOW_NODES if entry.position in SLOW_DEEP else QUICK_NODES
    assert reprove(entry.position, nodes, tmp_path).outcome == entry.outcome, entry.id
    if entry.outcome != "loss":
        state = katra.State.from_text(entry.position)
        mover = state.to_move
        state.push(entry.best_move)
        expected = entry.outcome if state.to_move == mover else OPPOSITE[entry.outcome]
        assert reprove(state.text(), nodes, tmp_path).outcome == expected, entry.id


@pytest.mark.parametrize("entry", _deep_params(mark_slow=False))
def test_bounded_solver_does_not_contradict_deep_entries(entry):
    """Within a small bound the bounded solver proves nothing, or the same outcome
    within the recorded depth (a deep entry is beyond its reach in a minute)."""
    r = katra.solve(entry.position, SMALL_BOUND)
    assert r.outcome in (None, entry.outcome), entry.id
    assert r.outcome is None or r.plies <= entry.plies, entry.id


@pytest.mark.parametrize("text, words", [
    ("solve win 3 a1\n", "needs a 'position' line"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nsolve won 3 a1\n",
     "expected 'solve win|loss|draw"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nsolve win 3\n", "line 2"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nsolve none 0\n", "outside 1..500"),
    ("position katro-4x4 2,2,2/2,2,2,2 S\n", "line 1"),
    ("perft 1 4\n", "unknown line"),
    ("# nothing\n", "no 'solve' or 'prove' line"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nprove none 30\n",
     "expected 'prove win|loss|draw WITHIN MOVE'"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nprove win 30\n",
     "expected 'prove win"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nprove win 0 b1\n",
     "outside 1..1048576"),
    ("prove win 30 b1\n", "a 'prove' line needs a 'position' line"),
])
def test_bad_suite_files(text, words):
    with pytest.raises(ValueError, match=words):
        read_solved(text)


def test_read_solved_round_trip():
    entries = read_solved("id x\nposition katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\n"
                          "solve win 17 b1\nposition djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S "
                          "stores=20,24\nsolve none 1\n")
    assert entries == [
        SolvedEntry("x", "katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", "win", 17, "b1"),
        SolvedEntry("djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24",
                    "djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24", None, 1, "")]
    assert all(e.exact for e in entries)


def test_read_solved_prove_lines():
    """A ``prove`` line's plies is an upper bound: ``exact`` False, and 501 plies and
    more are allowed (a proof file's claim), unlike a ``solve`` line's."""
    entries = read_solved("id deep\nposition gore 0,6,1,12/25,0,1,1 N stores=2,0 "
                          "owners=NSNN/SSSS\nprove loss 552 a2\n"
                          "position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\n"
                          "prove win 19 b1\n")
    assert entries == [
        SolvedEntry("deep", "gore 0,6,1,12/25,0,1,1 N stores=2,0 owners=NSNN/SSSS", "loss",
                    552, "a2", exact=False),
        SolvedEntry("katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S",
                    "katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", "win", 19, "b1", exact=False)]
    with pytest.raises(ValueError, match=r"outside 1\.\.500"):
        read_solved("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nsolve win 552 b1\n")


def test_solved_doc_examples_run():
    """docs/solved.md's examples are doctests."""
    import doctest
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "docs" / "solved.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= 2 and result.failed == 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_entry_ids_are_unique(game_id):
    """Each entry of a game's suite has an id of its own (a test's name)."""
    ids = [e.id for e in solved_suite(game_id) + deep_suite(game_id)]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
