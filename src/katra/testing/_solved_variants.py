"""The solved variants (docs/solved.md, "Variants"): the start positions of the
smaller boards of each family (docs/rules.md §7), solved by df-pn with a node budget.

katra ships the table as ``katra/data/solved_variants.json`` (written by
``tools/solve_variants.py``) and the proofs of its small settled starts as
``katra/data/proofs_variants/<game-id>.proof.gz`` (gzipped proof files,
docs/solve.md "Proof files").
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from katra._errors import ArgumentError, ArgumentTypeError

#: What a row's ``status`` may be.
STATUSES = ("settled", "open", "no-result", "over")
#: The family ids of the table, in its order (the variant texts' family ids).
VARIANT_FAMILIES = ("katro", "katra-mpantsaka", "katra-mpantsaka-simplified", "gore",
                    "djenon-aboure")


@dataclass(frozen=True)
class SolvedVariant:
    """One start of the table.

    ``id`` is the game id (``katro-4x5-s3``, or a named game's id such as
    ``katro-4x4``), ``family`` its family id (as in variant ids), ``rows``,
    ``cols`` and ``seeds`` (a hole at the start) its board.  ``status``:

    * ``"settled"``: ``outcome`` (``"win"``, ``"loss"`` or ``"draw"`` for
      South, who moves first) is proven; ``plies`` is the exact distance
      (docs/rules.md §6.3) when ``exact``, else an upper bound (the depth of
      df-pn's proof); ``best_move`` is katra's best move when ``exact``, else
      the first move of df-pn's proof line;
    * ``"open"``: neither df-pn within ``budget`` nodes nor retrograde
      analysis within ``retrograde_budget`` positions settled anything;
    * ``"no-result"``: neither player can force anything (lines that never
      end); shown by retrograde analysis over every position reachable when
      ``positions`` is given, else only found by df-pn (every question that
      would settle the value disproven within its budget; no proof file
      shows a disproof);
    * ``"over"``: the start is already a finished game.

    ``method``: which solver gave the result, ``"df-pn"`` or
    ``"retrograde"`` (None for a start over or open).  ``exact_nodes`` are
    the bounded solver's for the exact distance (None without one).
    ``nodes`` are df-pn's nodes (the same on every machine for the call
    ``katra.solve(id, nodes=budget, tt_bits=tt_bits)``, which ``command``
    gives as a command line; the budget when df-pn left the start open),
    ``cpu`` its CPU seconds on the machine of the table.  ``positions``:
    the positions retrograde analysis listed, where it ran (df-pn settled
    no value), None elsewhere; ``retrograde_command`` its command line.
    ``proof`` is the name of the shipped proof file or None.
    """

    id: str
    family: str
    rows: int
    cols: int
    seeds: int
    status: str
    result: str
    outcome: str | None
    plies: int | None
    exact: bool
    best_move: str
    nodes: int
    exact_nodes: int | None
    cpu: float
    budget: int
    tt_bits: int
    command: str
    proof: str | None
    method: str | None = None
    positions: int | None = None
    retrograde_budget: int | None = None

    @property
    def holes(self) -> int:
        return self.rows * self.cols

    @property
    def retrograde_command(self) -> str | None:
        """The command line of the row's retrograde analysis, or None where none ran."""
        if self.positions is None:
            return None
        return f"katra solve {self.id} --retrograde --positions {self.retrograde_budget}"

    def proof_text(self) -> str | None:
        """The text of the shipped proof (a proof file, docs/solve.md), or None."""
        if self.proof is None:
            return None
        data = (resources.files("katra") / "data" / "proofs_variants" / self.proof).read_bytes()
        return gzip.decompress(data).decode("utf-8")


def _row(raw: dict[str, Any], retrograde_budget: int) -> SolvedVariant:
    return SolvedVariant(
        id=raw["id"], family=raw["family"], rows=raw["rows"], cols=raw["cols"],
        seeds=raw["seeds"], status=raw["status"], result=raw["result"], outcome=raw["outcome"],
        plies=raw["plies"], exact=bool(raw["exact"]), best_move=raw["best_move"] or "",
        nodes=raw["nodes"], exact_nodes=raw.get("exact_nodes"), cpu=raw["cpu"],
        budget=raw["budget"], tt_bits=raw["tt_bits"],
        command=raw["command"], proof=raw["proof"],
        method=raw.get("method") if raw["status"] in ("settled", "no-result") else None,
        positions=raw.get("positions"),
        retrograde_budget=retrograde_budget if raw.get("positions") is not None else None)


@cache
def _table() -> tuple[SolvedVariant, ...]:
    text = (resources.files("katra") / "data" / "solved_variants.json").read_text(
        encoding="utf-8")
    data = json.loads(text)
    return tuple(_row(raw, data["retro_positions"]) for raw in data["rows"])


def solved_variants(family: str | None = None, rows: int | None = None) -> list[SolvedVariant]:
    """katra's table of solved variant starts (docs/solved.md, "Variants"), in its
    order (family, columns, seeds); ``family`` (a family id of the variant texts:
    ``"katro"``, ``"katra-mpantsaka"``, ``"katra-mpantsaka-simplified"``,
    ``"gore"``, ``"djenon-aboure"``) and ``rows`` keep only those.  For testing
    another solver on the settled ones:

    ```python
    @pytest.mark.parametrize("row", [r for r in katra.testing.solved_variants("katro")
                                     if r.status == "settled" and r.nodes < 10**6])
    def test_start(row):
        assert my_solve(row.id) == row.outcome
    ```
    """
    if family is not None:
        if not isinstance(family, str):
            raise ArgumentTypeError(f"family must be a str, not {type(family).__name__}")
        if family not in VARIANT_FAMILIES:
            raise ArgumentError(f"unknown family {family!r}; families: "
                                f"{', '.join(VARIANT_FAMILIES)}")
    if rows is not None and (isinstance(rows, bool) or not isinstance(rows, int)):
        raise ArgumentTypeError(f"rows must be an int, not {type(rows).__name__}")
    return [row for row in _table()
            if (family is None or row.family == family) and (rows is None or row.rows == rows)]
