"""katra's shipped solved-position suites (docs/solved.md) and ``katra.testing.solved_suite``:
every entry re-solved by the compiled core, the shallow ones by the brute-force
AND/OR search of test_solve.py over the reference (docs/rules.md §6.3 word for word)."""
import pytest

import katra
from helpers import BRUTE_PLIES, brute_best, brute_solve, value
from katra._games import GAME_IDS, GAMES
from katra._text import action_text
from katra.testing import SolvedEntry, read_solved, solved_suite


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
    with pytest.raises(katra.UnknownGameError):
        solved_suite("chess")


@pytest.mark.parametrize("text, words", [
    ("solve win 3 a1\n", "needs a 'position' line"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nsolve won 3 a1\n",
     "expected 'solve win|loss|draw"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nsolve win 3\n", "line 2"),
    ("position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nsolve none 0\n", "outside 1..500"),
    ("position katro-4x4 2,2,2/2,2,2,2 S\n", "line 1"),
    ("perft 1 4\n", "unknown line"),
    ("# nothing\n", "no 'solve' line"),
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


def test_solved_doc_examples_run():
    """docs/solved.md's examples are doctests."""
    import doctest
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "docs" / "solved.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= 2 and result.failed == 0
