"""The table of solved variant starts (docs/solved.md, "Variants";
``katra.testing.solved_variants``): its boards follow the growth rule of
tools/solve_variants.py, every small row is solved again (df-pn's value, nodes and
first move, then the bounded solver's exact distance and best move), the shallow
ones are confirmed by the brute-force AND/OR search over the reference, and the
shipped proofs pass the reference checker.  With ``-m slow`` every row of at
most SLOW_NODES df-pn nodes, open ones included, is solved again (the larger
ones' commands reproduce them)."""
from __future__ import annotations

import gzip
import json
from importlib import resources

import pytest

import katra
from helpers import brute_best, brute_solve, value
from katra import ArgumentError
from katra._games import _VARIANT_FAMILY_IDS, VARIANT_COLS, game_by_id, variant
from katra._text import action_text
from katra.api import load_position
from katra.testing import ProofError, check_proof, solved_variants
from katra.testing._solved_variants import STATUSES, VARIANT_FAMILIES, SolvedVariant

ROWS = solved_variants()
#: A variant texts' family id -> (katra._games' family, simplified).
FAMILY_RULES = {ident: key for key, ident in _VARIANT_FAMILY_IDS.items()}
#: Rows whose df-pn took at most this many nodes are solved again in the default run.
SMALL_NODES = 100_000
#: Rows with an exact distance at most this are confirmed by the brute-force search.
BRUTE_PLIES = 4
#: Proofs of at most this many bytes (ungzipped) are checked in the default run.
SMALL_PROOF = 5_000
#: The bounded solver's nodes of the exact distances solved again in the default run.
SMALL_EXACT_NODES = 100_000


def _ids(row: SolvedVariant) -> str:
    return row.id


def test_the_table_is_shipped_and_whole():
    assert len(ROWS) >= 30
    assert {row.family for row in ROWS} == set(VARIANT_FAMILIES)
    data = json.loads((resources.files("katra") / "data" / "solved_variants.json").read_text(
        encoding="utf-8"))
    assert len(data["rows"]) == len(ROWS)
    assert len({row.id for row in ROWS}) == len(ROWS)
    # df-pn's two budgets: the first, and the second for a start the first leaves open
    budgets = {(data["budget"], data["tt_bits"]),
               (data["extended_budget"], data["extended_tt_bits"])}
    assert data["budget"] < data["extended_budget"]
    assert {(row.budget, row.tt_bits) for row in ROWS} == budgets
    assert all(row.budget == data["extended_budget"] for row in ROWS if row.status == "open")
    for row in ROWS:
        base, simplified = FAMILY_RULES[row.family]
        spec = variant(base, row.rows, row.cols, row.seeds, simplified=simplified)
        assert spec.id == row.id
        assert game_by_id(row.id).variant_family == row.family
        assert row.status in STATUSES
        assert row.command == f"katra solve {row.id} --nodes {row.budget} --tt-bits {row.tt_bits}"
        # retrograde analysis ran exactly where df-pn settled no value
        dfpn_settled = row.status == "settled" and row.method == "df-pn"
        assert (row.positions is not None) == (row.status != "over" and not dfpn_settled)
        assert row.method == ({"settled": row.method, "no-result": "retrograde" if
                               row.positions is not None and row.positions
                               < row.retrograde_budget else "df-pn"}.get(row.status))
        if row.positions is not None:
            assert row.retrograde_command == (f"katra solve {row.id} --retrograde "
                                              f"--positions {row.retrograde_budget}")
            assert row.positions <= row.retrograde_budget
        if row.status == "settled":
            assert row.method in ("df-pn", "retrograde")
            assert row.outcome in ("win", "loss", "draw") and row.plies and row.best_move
            # South moves first at every start
            winner = {"win": "South", "loss": "North", "draw": None}[row.outcome]
            words = "in" if row.exact else "within"
            assert row.result == (f"draw {words} {row.plies}" if winner is None
                                  else f"{winner} wins {words} {row.plies}")
            if row.method == "df-pn":
                assert row.nodes < row.budget
            else:         # df-pn ran out; every position listed: the exact distance
                assert row.nodes >= row.budget and row.exact
                assert row.positions < row.retrograde_budget
        else:
            assert row.outcome is None
            assert row.proof is None
        if row.status == "open":
            assert row.nodes >= row.budget and row.positions == row.retrograde_budget
            assert row.result == (f"open beyond {row.budget:,} nodes and "
                                  f"{row.retrograde_budget:,} positions")


def test_the_boards_follow_the_growth_rule():
    """Per family: columns from the least; on each board seeds 1, 2, ... with an open
    start the last of its board; the next board only below that; a board open at one
    seed the family's last (tools/solve_variants.py)."""
    families = []
    for row in ROWS:
        key = (row.family, row.rows)
        if not families or families[-1] != key:
            assert key not in families, f"{key} is not in one run"
            families.append(key)
    for family, nrows in families:
        mine = [row for row in ROWS if (row.family, row.rows) == (family, nrows)]
        least = VARIANT_COLS[(FAMILY_RULES[family][0], nrows)][0]
        cols = sorted({row.cols for row in mine})
        assert cols == list(range(least, least + len(cols))), family
        limit = None
        for c in cols:
            board = [row for row in mine if row.cols == c]
            assert [row.seeds for row in board] == list(range(1, len(board) + 1)), board
            if limit is not None:
                assert len(board) <= limit, board
            opened = [row for row in board if row.status == "open"]
            assert opened in ([], [board[-1]]), board
            if opened:
                limit = opened[0].seeds - 1
                if limit == 0:
                    assert c == cols[-1], family


def test_filters_and_bad_arguments():
    assert solved_variants("katro") == [row for row in ROWS if row.family == "katro"]
    assert solved_variants("katro", 6) == [row for row in ROWS
                                           if row.family == "katro" and row.rows == 6]
    assert solved_variants(rows=2) == [row for row in ROWS if row.rows == 2]
    with pytest.raises(ArgumentError, match="unknown family 'chess'"):
        solved_variants("chess")
    with pytest.raises(TypeError, match="family must be a str"):
        solved_variants(4)                     # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rows must be an int"):
        solved_variants("katro", "4")          # type: ignore[arg-type]


def resolve(row: SolvedVariant, exact_nodes: int | None = None) -> None:
    """Solve the row's start again with its own call; the same value, nodes and move,
    and its exact distance again where the bounded solver took at most exact_nodes
    (None: any) for it."""
    pos = load_position(row.id, "core")
    if row.status == "over":
        assert pos.is_terminal()
        return
    result = katra.solve(row.id, nodes=row.budget, tt_bits=row.tt_bits)
    assert result.nodes == row.nodes, row.id
    if row.nodes >= row.budget:          # open for df-pn (retrograde's rows: their own test)
        assert result.outcome is None and result.describe() == (
            f"no result within {row.budget} nodes"), row.id
        return
    if row.status == "no-result":
        assert result.outcome is None and result.nodes < row.budget, row.id
        return
    assert result.outcome == row.outcome, row.id
    if not row.exact:
        assert (result.plies, result.best_move) == (row.plies, row.best_move), row.id
        return
    assert result.plies >= row.plies, row.id
    if exact_nodes is not None and (row.exact_nodes or 0) > exact_nodes:
        return
    # the larger exact steps with the row's table (the tool's), the small ones the default
    bits = row.tt_bits if (row.exact_nodes or 0) > SMALL_EXACT_NODES else None
    exact = katra.solve(row.id, max_plies=row.plies, tt_bits=bits)
    assert (exact.outcome, exact.plies, exact.best_move) == (row.outcome, row.plies,
                                                               row.best_move), row.id
    if row.plies > 1:
        assert katra.solve(row.id, max_plies=row.plies - 1, tt_bits=bits).outcome is None, (
            row.id)


SMALL = [row for row in ROWS if row.nodes <= SMALL_NODES
         and (row.exact_nodes or 0) <= SMALL_EXACT_NODES]


def resolve_retrograde(row: SolvedVariant) -> None:
    """Retrograde analysis of the row's start again, with its own call: the same
    positions and result."""
    result = katra.retrograde(row.id, positions=row.retrograde_budget)
    if row.positions == row.retrograde_budget:        # it ran out: open, or df-pn's word
        assert row.status in ("open", "no-result") and row.method != "retrograde", row.id
        assert result.outcome is None and result.max_nodes == row.retrograde_budget, row.id
        return
    assert result.nodes == row.positions and result.max_nodes is None, row.id
    assert result.outcome == row.outcome, row.id
    if row.status == "settled":
        assert (result.plies, result.best_move) == (row.plies, row.best_move), row.id
        if row.method == "df-pn" and row.exact is False:
            assert result.plies <= row.plies


#: Retrograde rows of at most this many positions are solved again in the default run.
SMALL_POSITIONS = 200_000
RETROGRADE = [row for row in ROWS if row.positions is not None]


def test_small_retrograde_rows_are_solved_again():
    small = [row for row in RETROGRADE if row.positions <= SMALL_POSITIONS]
    assert len(small) >= 3 and any(row.method == "retrograde" for row in small)
    for row in small:
        resolve_retrograde(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", [row for row in RETROGRADE if row.positions > SMALL_POSITIONS],
                         ids=_ids)
def test_every_retrograde_row_is_solved_again(row):
    resolve_retrograde(row)


def test_small_rows_are_solved_again():
    assert len(SMALL) >= 20
    for row in SMALL:
        resolve(row)


#: Rows of at most this many df-pn nodes are solved again in the slow run, and their
#: exact distances where the bounded solver took at most SLOW_EXACT_NODES for them
#: (it runs at the distance and one ply less: some 15 s of CPU a row); the others
#: (the open rows at the budget, the few largest settled ones, about 50 s of df-pn
#: each, and the largest exact steps, up to 100 s each) are reproduced by their rows'
#: commands.
SLOW_NODES = 20_000_000
SLOW_EXACT_NODES = 60_000_000


@pytest.mark.slow
@pytest.mark.parametrize("row", [row for row in ROWS if row not in SMALL
                                 and row.nodes <= SLOW_NODES], ids=_ids)
def test_every_row_is_solved_again(row):
    resolve(row, SLOW_EXACT_NODES)


def test_brute_force_confirms_the_shallow_starts():
    """The independent search over the reference (tests/helpers.py) on every exact
    distance within its reach."""
    shallow = [row for row in ROWS if row.status == "settled" and row.exact
               and row.plies <= BRUTE_PLIES]
    assert len(shallow) >= 10
    for row in shallow:
        text = load_position(row.id, "core").text()
        outcome, plies = brute_solve(text, row.plies)
        assert (outcome, plies) == (row.outcome, row.plies), row.id
        best = brute_best(text, outcome, plies)
        assert action_text(game_by_id(row.id), best) == row.best_move, row.id
    value.cache_clear()


def check_shipped(row: SolvedVariant, tmp_path) -> None:
    path = tmp_path / f"{row.id}.proof"
    text = row.proof_text()
    assert text is not None
    path.write_text(text, encoding="utf-8")
    summary = check_proof(path)
    assert summary.position == load_position(row.id, "core").text()
    assert summary.outcome == row.outcome, row.id
    if row.exact:
        assert summary.plies >= row.plies, row.id
    else:
        assert summary.plies == row.plies, row.id


def _proof_size(row: SolvedVariant) -> int:
    data = (resources.files("katra") / "data" / "proofs_variants" / row.proof).read_bytes()
    return len(gzip.decompress(data))


PROVEN = [row for row in ROWS if row.proof is not None]


def test_settled_rows_ship_their_small_proofs():
    assert len(PROVEN) >= 20
    files = {p.name for p in (resources.files("katra") / "data" / "proofs_variants").iterdir()}
    assert files == {row.proof for row in PROVEN}
    assert all(row.status == "settled" for row in PROVEN)


def test_small_proofs_pass_the_reference_checker(tmp_path):
    small = [row for row in PROVEN if _proof_size(row) <= SMALL_PROOF]
    assert len(small) >= 20
    for row in small:
        check_shipped(row, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("row", [row for row in PROVEN if _proof_size(row) > SMALL_PROOF],
                         ids=_ids)
def test_every_proof_passes_the_reference_checker(row, tmp_path):
    check_shipped(row, tmp_path)


def test_a_damaged_proof_is_refused(tmp_path):
    """The check can fail: the first proof with a defender's node, one move dropped."""
    row = next(row for row in PROVEN if row.plies and row.plies >= 3)
    lines = row.proof_text().splitlines()
    moves = [i for i, line in enumerate(lines) if line.startswith("2 ")]
    assert moves, row.id
    del lines[moves[0]]
    path = tmp_path / "cut.proof"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ProofError):
        check_proof(path)
