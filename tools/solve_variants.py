"""Solve the start positions of small variants (docs/rules.md §7) and publish the table
(docs/solved.md, "Variants"; src/katra/data/solved_variants.json).

For each family (FAMILIES: Katro on 4 and on 6 rows, Katra Mpantsaka, its simplified
rules, Goré, Djenon-aboure) the boards are taken from the smallest upwards: the
columns from the family's least, and on each board the seeds a hole 1, 2, 3, ... up to
SEEDS_CAP.  Each start is solved by df-pn (``katra.solve(game, nodes=NODES,
tt_bits=TT_BITS)``, one thread: a node budget, no clock, so the same answer and the
same node count on every machine for a given katra).  A start that budget leaves open is
solved again by df-pn with EXTENDED_NODES and a table of 2**EXTENDED_TT_BITS entries (its
row then gives that run).  Growth stops where a start is left open by both:

* on a board, the first seeds count left open ends the seeds (more seeds a hole are
  taken to be harder);
* the next board (one column more) takes seeds only below that count (the seeds
  left open on the smaller board are taken to be open on the larger);
* a board whose one seed a hole is left open ends the family.

A start that is over before the first move (some small Goré and Djenon-aboure boards)
is recorded as such; a start where df-pn ends within its budget with every question
that would settle the value disproven (a player can keep the game from ending) as "no
forced result".

For a settled start, the bounded solver then searches for the exact distance
(docs/rules.md §6.3; ``katra.solve(game, max_plies=P)`` with P df-pn's proof depth)
while the nodes before its next bound stay under EXACT_NODES; where it finishes, the
row gives the exact distance and katra's best move, else df-pn's "within" and the first
move of its proof line.  df-pn's proof is written (``katra solve GAME --nodes N
--tt-bits B --proof FILE`` writes the same file) and, when smaller than PROOF_BYTES,
checked on the reference backend (``katra.testing.check_proof``) and kept, gzipped, in
src/katra/data/proofs_variants/<game-id>.proof.gz.

Every solve runs in a subprocess of its own (a process registers at most 255 games,
and a solve can then be stopped without losing the others).  Rows go to a journal
(JSON lines) as they are found, so that a stopped run resumes where it was:

    python tools/solve_variants.py run [--journal FILE] [--family ID ...]
    python tools/solve_variants.py write [--journal FILE]   # the JSON, the docs, the plot
                                        # (from the shipped JSON when there is no journal)
    python tools/solve_variants.py one GAME_ID [--proof-dir DIR]   # one row, as JSON
    python tools/solve_variants.py exact [GAME_ID ...] [--journal FILE] [--exact-nodes N]

``exact`` runs the exact step alone again (``one GAME_ID --previous ROW``: df-pn's part
of the row kept, no df-pn) for the rows named, or all, that df-pn settled without an
exact distance whose exact step has not had N nodes (EXACT_NODES by default), and
journals them as ``run`` does; without a journal it starts one from the shipped table.

``write`` writes src/katra/data/solved_variants.json, the section of docs/solved.md
between ``<!-- variants:begin -->`` and ``<!-- variants:end -->``, and
docs/solved_variants.svg (the nodes of each settled start against its holes, on a log
scale, one series per family), and fits log10(nodes) against holes per family for the
extrapolation to the open named games.
"""
from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "katra" / "data" / "solved_variants.json"
PROOFS = ROOT / "src" / "katra" / "data" / "proofs_variants"
DOC = ROOT / "docs" / "solved.md"
SVG = ROOT / "docs" / "solved_variants.svg"
JOURNAL = Path("/tmp/solve_variants.jsonl")
BEGIN, END = "<!-- variants:begin -->", "<!-- variants:end -->"

NODES = 200_000_000        # df-pn's node budget per start
TT_BITS = 22               # df-pn's table: 2**22 entries of 24 bytes (96 MiB)
#: df-pn's second budget and table, for a start the first leaves open: 3 to 25 minutes of
#: one core (0.7 to 5 million nodes a CPU second), 768 MiB.
EXTENDED_NODES = 1_000_000_000
EXTENDED_TT_BITS = 25
#: The bounded solver starts no bound past this many nodes.  Its last bound about doubles
#: the nodes before it, so a start it does not finish takes 1 to 2 times this: up to 4.5
#: minutes of one core (Katro 6x4, 1.6 to 4 million nodes a CPU second; Djenon-aboure and
#: Goré 7 to 13 million); the exact steps of the whole table take about 32 minutes of one
#: core.
EXACT_NODES = 300_000_000
PROOF_BYTES = 200_000      # proofs smaller than this are checked and kept
SEEDS_CAP = 8              # the most seeds a hole taken on any board
RETRO_POSITIONS = 4_000_000  # retrograde analysis's budget where df-pn settles nothing

#: (family id of the variant texts, rows, family's words, the named game of that size
#: and its seeds, for the extrapolation)
FAMILIES: tuple[tuple[str, int, str], ...] = (
    ("katro", 4, "Katro, 4 rows"),
    ("katro", 6, "Katro, 6 rows"),
    ("katra-mpantsaka", 4, "Katra Mpantsaka"),
    ("katra-mpantsaka-simplified", 4, "Katra Mpantsaka (simplified)"),
    ("gore", 2, "Goré"),
    ("djenon-aboure", 2, "Djenon-aboure"),
)
#: The named games whose start is open, with the family series they extend.
OPEN_NAMED = (
    ("katro-4x6", "Katro 4x6", "katro", 4, 6, 2),
    ("katro", "Katro (6x6)", "katro", 6, 6, 2),
    ("gore", "Goré", "gore", 2, 4, 6),
    ("katra-mpantsaka", "Katra Mpantsaka", "katra-mpantsaka", 4, 8, 2),
    ("katra-mpantsaka-simplified", "Katra Mpantsaka (simplified)",
     "katra-mpantsaka-simplified", 4, 8, 2),
)
SIDES = ("South", "North")
#: A start df-pn settles no value of without running out of nodes.
NO_RESULT = "no forced result"


def family_key(family: str, rows: int) -> str:
    return f"{family}-{rows}"


def game_id(family: str, rows: int, cols: int, seeds: int) -> str:
    """The canonical id of a board (a named game's id where it is one)."""
    from katra._games import variant
    base, simplified = rules_family(family)
    return variant(base, rows, cols, seeds, simplified=simplified).id


def rules_family(family: str) -> tuple[str, bool]:
    """(katra._games' family, simplified) of a variant texts' family id."""
    from katra._games import _VARIANT_FAMILY_IDS
    return next(key for key, ident in _VARIANT_FAMILY_IDS.items() if ident == family)


def command(ident: str, nodes: int = NODES, tt_bits: int = TT_BITS) -> str:
    return f"katra solve {ident} --nodes {nodes} --tt-bits {tt_bits}"


def retro_command(ident: str, positions: int = RETRO_POSITIONS) -> str:
    return f"katra solve {ident} --retrograde --positions {positions}"


# ------------------------------------------------------------------ one start (subprocess)

class _Stop(Exception):
    """The bounded solver's next bound would start past EXACT_NODES."""


def solve_one(ident: str, nodes: int, tt_bits: int, exact_nodes: int,
              proof_dir: Path | None, retro_positions: int = RETRO_POSITIONS,
              previous: dict | None = None, extended_nodes: int = 0,
              extended_tt_bits: int = EXTENDED_TT_BITS) -> dict:
    """Solve the start of ``ident``: the row, as a dict.  df-pn first, with the
    bounded solver's exact distance where it settles the value; or the ``previous``
    row (df-pn's part kept), with the exact step again where it has not had
    ``exact_nodes`` (``exact_short``).  A start left open (``extended_short``) is
    solved by df-pn again with ``extended_nodes`` (0: never) and a table of
    2**``extended_tt_bits`` entries, which gives the row.  Then, where df-pn settles no
    value, retrograde analysis within ``retro_positions`` positions (0: none), unless
    the row has had it with that many."""
    from katra.api import load_position

    pos = load_position(ident, "core")
    row = dict(previous) if previous is not None else solve_dfpn(
        ident, pos, nodes, tt_bits, exact_nodes, proof_dir)
    if extended_short(row, extended_nodes):
        retro = {key: row[key] for key in ("positions", "retro_cpu", "retro_budget")
                 if key in row}
        row = solve_dfpn(ident, pos, extended_nodes, extended_tt_bits, exact_nodes, proof_dir)
        if row["status"] in ("open", "no-result"):     # retrograde's part stays the same
            row.update(retro)
            if row["status"] == "open" and "positions" in row:
                row["result"] = open_result(row["budget"], row["positions"])
    if row["status"] in ("open", "no-result"):
        if retro_positions and row.get("retro_budget") != retro_positions:
            solve_retrograde(row, ident, pos, retro_positions, proof_dir)
    elif previous is not None and exact_short(row, exact_nodes):
        solve_exact(row, ident, pos, row["tt_bits"], exact_nodes)
    return row


def open_result(budget: int, positions: int) -> str:
    """The result of a start open for df-pn within budget nodes and for retrograde
    analysis within positions."""
    return f"open beyond {budget:,} nodes and {positions:,} positions"


def extended_short(row: dict, extended_nodes: int) -> bool:
    """A start open for df-pn and retrograde analysis that df-pn has not had
    ``extended_nodes`` for."""
    return row["status"] == "open" and 0 < extended_nodes and row["budget"] < extended_nodes


def exact_short(row: dict, exact_nodes: int) -> bool:
    """A start df-pn settled whose exact step has not had ``exact_nodes``: the
    bounded solver stopped before a bound starting at ``exact_stopped`` nodes, which
    a budget below that stops alike."""
    return not_exact(row) and row.get("exact_budget", 0) < exact_nodes and row.get(
        "exact_stopped", 0) <= exact_nodes


def not_exact(row: dict) -> bool:
    """A start df-pn settled whose exact distance the bounded solver did not find."""
    return row["status"] == "settled" and row.get("method", "df-pn") == "df-pn" and not (
        row["exact"])


def solve_retrograde(row: dict, ident: str, pos, positions: int,
                     proof_dir: Path | None) -> None:
    """Retrograde analysis of a start df-pn left open or without a result: the row
    updated (its df-pn fields kept)."""
    import katra
    from katra.api._retrograde import RetrogradeGraph, TooManyPositions, write_graph_proof

    start = time.process_time()
    try:
        graph = RetrogradeGraph(pos, positions)
    except TooManyPositions:
        row.update(positions=positions, retro_cpu=round(time.process_time() - start, 3),
                   retro_budget=positions)
        if row["status"] == "open":
            row["result"] = open_result(row["budget"], positions)
        return
    graph.solve()
    outcome, distance, best = graph.best(0)
    row.update(positions=len(graph), retro_cpu=round(time.process_time() - start, 3),
               retro_budget=positions)
    if row["status"] == "no-result" or outcome is None:
        if row["status"] == "no-result" and outcome is not None:
            raise RuntimeError(f"{ident}: df-pn found no result, retrograde analysis {outcome}")
        row.update(status="no-result", outcome=None, result=NO_RESULT, method="retrograde")
        return
    game = katra.game(ident)
    winner = None if outcome == "draw" else SIDES[0 if outcome == "win" else 1]
    row.update(status="settled", method="retrograde", outcome=outcome, plies=distance,
               exact=True, best_move=game.action_text(best),
               line=" ".join(game.action_text(a) for a in graph.line(0, distance)),
               result=(f"draw in {distance}" if winner is None
                       else f"{winner} wins in {distance}"))
    if proof_dir is not None:
        keep_proof(row, ident, outcome, distance, proof_dir,
                   lambda out: write_graph_proof(out, graph, pos, outcome, distance))


def keep_proof(row: dict, ident: str, outcome: str, plies: int, proof_dir: Path,
               write) -> None:
    """Write a row's proof (``write(stream)``: its lines); under PROOF_BYTES, check it
    on the reference and keep it gzipped in proof_dir."""
    from katra.testing import check_proof
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{ident}.proof"
        start = time.process_time()
        with open(path, "w", encoding="utf-8") as out:
            lines = write(out)
        row.update(proof_lines=lines, proof_bytes=path.stat().st_size,
                   proof_cpu=round(time.process_time() - start, 3))
        if path.stat().st_size < PROOF_BYTES:
            start = time.process_time()
            summary = check_proof(path)       # ProofError stops the run at this row
            row["check_cpu"] = round(time.process_time() - start, 3)
            if (summary.outcome, summary.plies) != (outcome, plies):
                raise RuntimeError(f"{ident}: the proof proves {summary}")
            row["check"] = "ok"
            proof_dir.mkdir(parents=True, exist_ok=True)
            (proof_dir / f"{ident}.proof.gz").write_bytes(
                gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
            row["proof"] = f"{ident}.proof.gz"


def solve_dfpn(ident: str, pos, nodes: int, tt_bits: int, exact_nodes: int,
               proof_dir: Path | None) -> dict:
    """df-pn's row of the start of ``ident`` (then the bounded solver's distance)."""
    import katra
    from katra.api import write_proof
    from katra.api._dfpn import Dfpn
    from katra.api._solve import solve_unbounded

    row: dict = {"id": ident, "budget": nodes, "tt_bits": tt_bits, "command": command(
        ident, nodes, tt_bits)}
    if pos.is_terminal():
        returns = katra.game(ident).new_initial_state().returns()
        row.update(status="over", outcome=None, nodes=0, cpu=0.0,
                   result="over at the start: " + (
                       "draw" if returns[0] == returns[1]
                       else f"{SIDES[0 if returns[0] > returns[1] else 1]} wins"))
        return row
    search = Dfpn(tt_bits, nodes)
    start = time.process_time()
    result = solve_unbounded(pos, nodes, None, tt_bits, False, None, search)
    cpu = time.process_time() - start
    row.update(nodes=result.nodes, cpu=round(cpu, 3))
    if result.outcome is None:
        if search.out_of_nodes:
            row.update(status="open", outcome=None, result=f"open beyond {nodes:,} nodes")
        else:
            row.update(status="no-result", method="df-pn", outcome=None, result=NO_RESULT)
        return row
    row.update(status="settled", method="df-pn", outcome=result.outcome, within=result.plies,
               dfpn_move=result.best_move, dfpn_line=" ".join(
                   katra.game(ident).action_text(a) for a in result.pv))
    solve_exact(row, ident, pos, tt_bits, exact_nodes)
    if proof_dir is not None:
        keep_proof(row, ident, result.outcome, result.plies, proof_dir,
                   lambda out: write_proof(out, pos, result, tt_bits=tt_bits, search=search))
    return row


def solve_exact(row: dict, ident: str, pos, tt_bits: int, exact_nodes: int) -> None:
    """The bounded solver's exact distance of a start df-pn settled (the row's
    ``outcome``, ``within`` and ``dfpn_move``), while the nodes before its next bound
    stay under ``exact_nodes``: the row updated (``exact_budget``: that budget; where
    the bounded solver stops, ``exact_stopped``: its nodes so far)."""
    import katra

    spent = [0]

    def stop(progress) -> None:
        spent[0] = progress.nodes
        if progress.nodes > exact_nodes:
            raise _Stop

    for key in ("exact_nodes", "exact_cpu", "exact_stopped", "line"):
        row.pop(key, None)
    start = time.process_time()
    try:
        exact = katra.solve(ident, max_plies=min(row["within"], 500), tt_bits=tt_bits,
                            progress=stop)
    except _Stop:
        exact = None
    exact_cpu = round(time.process_time() - start, 3)
    row["exact_budget"] = exact_nodes
    if exact is not None and exact.outcome == row["outcome"] and exact.plies <= row["within"]:
        row.update(plies=exact.plies, exact=True, best_move=exact.best_move,
                   exact_nodes=exact.nodes, exact_cpu=exact_cpu,
                   line=" ".join(katra.game(ident).action_text(a) for a in exact.pv))
    elif exact is not None and (exact.outcome is not None or row["within"] <= 500):
        raise RuntimeError(f"{ident}: the bounded solver says {exact.describe()}, "
                           f"df-pn {row['outcome']} within {row['within']} plies")
    else:      # stopped, or no result within the bounded solver's 500 plies
        row.update(plies=row["within"], exact=False, best_move=row["dfpn_move"],
                   exact_cpu=exact_cpu, exact_stopped=spent[0])
    mover = int(pos.to_move)
    winner = None if row["outcome"] == "draw" else SIDES[
        mover if row["outcome"] == "win" else 1 - mover]
    words = "in" if row["exact"] else "within"
    row["result"] = (f"draw {words} {row['plies']}" if winner is None
                     else f"{winner} wins {words} {row['plies']}")


# ------------------------------------------------------------------ the run

def read_journal(path: Path) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[row["id"]] = row
    return rows


def more_to_do(row: dict, args: argparse.Namespace) -> bool:
    """Whether a journal's row takes retrograde analysis (df-pn settled no value) or the
    exact step (no exact distance) under a larger budget than it had."""
    if extended_short(row, args.extended_nodes):
        return True
    if row["status"] in ("open", "no-result"):
        return bool(args.retro_positions) and row.get("retro_budget") != args.retro_positions
    return exact_short(row, args.exact_nodes)


def run_row(ident: str, journal: Path, args: argparse.Namespace) -> dict:
    done = read_journal(journal)
    previous = done.get(ident)
    if previous is not None and not more_to_do(previous, args):
        return previous
    cmd = [sys.executable, str(Path(__file__).resolve()), "one", ident, "--nodes",
           str(args.nodes), "--tt-bits", str(args.tt_bits), "--exact-nodes",
           str(args.exact_nodes), "--proof-dir", str(args.proof_dir), "--retro-positions",
           str(args.retro_positions), "--extended-nodes", str(args.extended_nodes),
           "--extended-tt-bits", str(args.extended_tt_bits)]
    if previous is not None:       # df-pn's part is in the journal: retrograde or exact only
        cmd += ["--previous", json.dumps(previous)]
    wall = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{ident}: {out.stderr.strip()}")
    row = json.loads(out.stdout.strip().splitlines()[-1])
    row["wall"] = round(time.monotonic() - wall, 1)
    with open(journal, "a", encoding="utf-8") as stream:
        stream.write(json.dumps(row) + "\n")
    print(f"{ident:40} {row['result']:45} {row['nodes']:>12,} nodes {row['cpu']:8.1f} s"
          + (f" {row['positions']:>10,} positions {row['retro_cpu']:6.1f} s"
             if "positions" in row else ""), flush=True)
    return row


def journal_or_table(journal: Path) -> dict[str, dict]:
    """The journal's rows; where there is no journal, the shipped table's, written to it
    first (its empty fields left out, a row without an exact distance with the table's
    exact budget)."""
    done = read_journal(journal)
    if done:
        return done
    data = json.loads(DATA.read_text(encoding="utf-8"))
    with open(journal, "w", encoding="utf-8") as stream:
        for shipped in data["rows"]:
            row = {key: value for key, value in shipped.items() if value is not None}
            if not_exact(row):
                row["exact_budget"] = data["exact_nodes"]
            stream.write(json.dumps(row) + "\n")
    return read_journal(journal)


def run_exact(args: argparse.Namespace) -> None:
    """The exact step again (run_row: ``one --previous``, in a subprocess of its own),
    of the rows named (all by default) that df-pn settled without an exact distance
    whose exact step has not had ``--exact-nodes`` (``exact_short``)."""
    done = journal_or_table(args.journal)
    idents = args.game or list(done)
    unknown = [ident for ident in idents if ident not in done]
    if unknown:
        raise SystemExit(f"not in the journal: {', '.join(unknown)}")
    for ident in idents:
        if exact_short(done[ident], args.exact_nodes):
            run_row(ident, args.journal, args)


def run_family(family: str, rows: int, journal: Path, args: argparse.Namespace) -> None:
    from katra._games import MAX_TOTAL_SEEDS, VARIANT_COLS
    least, most = VARIANT_COLS[(rules_family(family)[0], rows)]
    limit = args.seeds_cap          # seeds a hole that may still be taken on this board
    for cols in range(least, most + 1):
        settled_any = False
        for seeds in range(1, min(limit, MAX_TOTAL_SEEDS // (rows * cols)) + 1):
            row = run_row(game_id(family, rows, cols, seeds), journal, args)
            if row["status"] == "open":
                limit = seeds - 1
                break
            settled_any = True
        if not settled_any or limit < 1:
            return


def run(args: argparse.Namespace) -> None:
    for family, rows, _ in FAMILIES:
        if args.family and family_key(family, rows) not in args.family:
            continue
        run_family(family, rows, args.journal, args)


# ------------------------------------------------------------------ the table, the docs, the plot

#: What more there is to say of where a family stops.
NOTES = {
    "katra-mpantsaka-4": (
        "df-pn settles none of these starts (docs/solve.md, \"Without a bound: "
        "proof-number search\": lines that never capture come back to where they were, and "
        "its disproofs of them rest on repetitions); retrograde analysis settles every "
        "start of up to about 2 million positions, and each is no forced result: neither "
        "player can force a win, since the other can keep the game going for ever."),
    "katra-mpantsaka-simplified-4": "The same holds with the simplified rules.",
}
MAX_SEEDS_TEXT = "1,000 seeds on the board, docs/rules.md §7"
#: Settled starts of fewer nodes are left out of the fit (wins in a few plies, which
#: say nothing about the growth).
MIN_FIT_NODES = 1_000
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#d62728", "#8c564b")
KEEP = ("id", "family", "rows", "cols", "seeds", "status", "result", "outcome", "plies",
        "exact", "best_move", "within", "dfpn_move", "nodes", "exact_nodes", "cpu", "command",
        "proof", "proof_lines", "budget", "tt_bits", "method", "positions", "retro_cpu",
        "retro_budget")


def table_rows(journal: dict[str, dict]) -> list[dict]:
    """The journal's rows with their board, in the table's order (family, columns, seeds)."""
    from katra._games import game_by_id
    order = {family_key(family, rows): i for i, (family, rows, _) in enumerate(FAMILIES)}
    out = []
    for row in journal.values():
        spec = game_by_id(row["id"])
        full = dict(row, family=spec.variant_family, rows=spec.rows, cols=spec.cols,
                    seeds=spec.seeds_per_hole)
        if full["status"] == "no-win":          # the journal's first name for it
            full.update(status="no-result", result=NO_RESULT)
        if full["status"] in ("settled", "no-result"):
            full.setdefault("method", "df-pn")
        out.append({key: full.get(key) for key in KEEP})
    out.sort(key=lambda r: (order[family_key(r["family"], r["rows"])], r["cols"], r["seeds"]))
    return out


def dfpn_status(r: dict) -> str:
    """The row's status by df-pn alone (the plot and the fits are df-pn's): a start
    that retrograde analysis settled after df-pn ran out of nodes is open for df-pn."""
    return "open" if r["status"] != "over" and r["nodes"] >= r["budget"] else r["status"]


def words(family: str, rows: int) -> str:
    return next(w for f, r, w in FAMILIES if (f, r) == (family, rows))


def fit(points: list[tuple[float, float]]) -> tuple[float, float, float | None] | None:
    """Least squares y = a + b x: (a, b, the residuals' standard deviation with n - 2
    degrees of freedom, None for two points); None for fewer than two x values."""
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    a = my - b * mx
    spread = None
    if n > 2:
        spread = math.sqrt(sum((y - a - b * x) ** 2 for x, y in points) / (n - 2))
    return a, b, spread


def fit_points(rows: list[dict], family: str, nrows: int,
               by_seeds: bool = False) -> list[tuple[float, float]]:
    """(holes, log10 nodes) of the hardest settled start of each board of the family
    (the most nodes over its seeds), boards whose hardest start took MIN_FIT_NODES or
    more; ``by_seeds``: (seeds on the board, log10 nodes), the hardest of each total."""
    hardest: dict[int, int] = {}
    for r in rows:
        if (r["family"], r["rows"]) == (family, nrows) and dfpn_status(r) == "settled":
            holes = r["rows"] * r["cols"] * (r["seeds"] if by_seeds else 1)
            hardest[holes] = max(hardest.get(holes, 0), r["nodes"])
    return [(h, math.log10(n)) for h, n in sorted(hardest.items()) if n >= MIN_FIT_NODES]


def rate(rows: list[dict], family: str, nrows: int) -> float | None:
    """df-pn's nodes a CPU second over the family's starts of 0.5 s or more."""
    big = [r for r in rows if (r["family"], r["rows"]) == (family, nrows) and r["cpu"] >= 0.5]
    cpu = sum(r["cpu"] for r in big)
    return sum(r["nodes"] for r in big) / cpu if cpu else None


def power(x: float) -> str:
    """10**x in words: 3.2e+08 as '3e8'."""
    return f"1e{x:.0f}" if x >= 16 else f"{10 ** x:.1g}".replace("e+0", "e").replace("e+", "e")


def stops(rows: list[dict], family: str, nrows: int, cap: int) -> str:
    """Where a family's growth stopped, and why, in words."""
    from katra._games import MAX_TOTAL_SEEDS, VARIANT_COLS
    mine = [r for r in rows if (r["family"], r["rows"]) == (family, nrows)]
    if not mine:
        return "no start of this family is in the table."
    parts = []
    limit = cap
    for cols in sorted({r["cols"] for r in mine}):
        board = [r for r in mine if r["cols"] == cols]
        done = [r["seeds"] for r in board if r["status"] != "open"]
        opened = [r["seeds"] for r in board if r["status"] == "open"]
        text = f"{nrows}x{cols}: "
        notes = []
        if done:
            text += f"seeds 1 to {max(done)} settled" if len(done) > 1 else "1 seed settled"
            if not opened and max(done) == min(limit, MAX_TOTAL_SEEDS // (nrows * cols)):
                notes.append("the cap" if max(done) == cap
                             else "the most the growth rule allows here")
            notes += [f"{r['seeds']}: " + ("over" if r["status"] == "over" else NO_RESULT)
                      for r in board if r["status"] in ("no-result", "over")]
            if notes:
                text += f" ({'; '.join(notes)})"
        if opened:
            text += (f", {opened[0]} open" if done else "1 seed open")
            limit = opened[0] - 1
        parts.append(text)
    last = mine[-1]
    most = VARIANT_COLS[(rules_family(family)[0], nrows)][1]
    if last["status"] == "open" and last["seeds"] == 1:
        why = (f"{nrows}x{last['cols']} is open with one seed a hole, which ends the family")
    elif last["cols"] == most:
        why = f"{nrows}x{most} is the family's largest board"
    else:
        why = (f"the table ends here: the next board, {nrows}x{last['cols'] + 1}, was not "
               f"solved")
    return "; ".join(parts) + f". It stops because {why}."


def cell(r: dict) -> tuple[str, ...]:
    board = f"{r['rows']}x{r['cols']}"
    result = r["result"]
    if r["status"] == "settled":
        result = f"**{result}**" if r["exact"] else result
    best = f"`{r['best_move']}`" if r.get("best_move") else ""
    retro = r.get("method") == "retrograde"
    seconds = r["retro_cpu"] if retro else r["cpu"]
    cpu = f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.0f} s"
    positions = f"{r['positions']:,}" if r.get("positions") is not None else ""
    how = retro_command(r["id"], r["retro_budget"]) if retro else r["command"]
    return (words(r["family"], r["rows"]), board, str(r["seeds"]), result, best,
            f"{r['nodes']:,}", positions, cpu, f"`{how}`")


def section(rows: list[dict], meta: dict) -> str:
    budget, bits, exact_nodes = meta["budget"], meta["tt_bits"], meta["exact_nodes"]
    out = [BEGIN, "## Variants", ""]
    out += [
        "The start positions of the smaller boards of each family (docs/rules.md §7), from",
        "the smallest board upwards: the columns from the family's least, and on each board",
        f"1, 2, 3, ... seeds a hole, up to {meta['seeds_cap']} (and at most "
        f"{MAX_SEEDS_TEXT}). Each start is solved by df-pn",
        f"with a budget of **{budget:,} nodes** and a table of 2**{bits} entries",
        f"(`katra.solve(game, nodes={budget}, tt_bits={bits})`, one thread; the command in",
        "each row gives the same result and the same node count on any machine). A start",
        f"that budget leaves open is solved by df-pn again with **{meta['extended_budget']:,}",
        f"nodes** and a table of 2**{meta['extended_tt_bits']} entries (768 MiB; 3 to 25 "
        "minutes of one core), and its row",
        "gives that run. A start that neither df-pn within its budgets nor retrograde",
        "analysis (below) settles is **open**, and ends its family's growth in that",
        "direction:",
        "",
        "* on a board, the first seeds count left open ends the seeds (more seeds a hole are",
        "  taken to be no easier);",
        "* the next board (one column more) takes only fewer seeds than that;",
        "* a board left open with one seed a hole ends the family.",
        "",
        "For a settled start, the bounded solver then looks for the exact distance",
        "(docs/rules.md §6.3: `katra.solve(game, max_plies=P)`, P the depth of df-pn's",
        f"proof) as long as it has used fewer than {exact_nodes:,} nodes before a bound;",
        "where it finishes, the row gives the exact distance in bold (\"South wins in N\")",
        "and katra's best move (§6.3: the shortest win or the longest resistance; ties to",
        "the smallest action number), else df-pn's",
        "bound (\"South wins within N\": the depth of its proof) and the first move of its",
        "proof's line (a row's command with `--exact` gives the exact distance too: the",
        "bounded solver after df-pn, its nodes added to df-pn's). The nodes and the CPU",
        "seconds are the row's solver's (`time.process_time` of the",
        "solve, on a 2-core x86-64 machine shared with other work).",
        "",
        "Where df-pn settles no value (open, or no forced result), **retrograde analysis**",
        "(docs/solve.md, \"Every position: retrograde analysis\": `katra.retrograde(game,",
        f"positions={meta['retro_positions']})`) lists every position reachable from the "
        "start, up to",
        f"{meta['retro_positions']:,}, and solves them all: its rows give the exact distance "
        "and best move,",
        "the positions it listed and its command, and their df-pn nodes stay in the table",
        "(the budget, for a start df-pn left open). \"No forced result\": neither player",
        "can force anything, since lines that never end keep the game going (docs/rules.md",
        "§6.3); with a count of positions, retrograde analysis has shown it over every",
        "position reachable; without one, df-pn ended within its budget with every question",
        "that would settle the value disproven, which is not a proof (df-pn's disproofs may",
        "rest on repetitions of its path, docs/solve.md). \"Over at the start\": the start",
        "is already a finished game. A start open for both is **open beyond its nodes and",
        "positions**.",
        "",
        "`python tools/solve_variants.py run` solves the rows (each in a subprocess of its",
        "own, resuming from its journal), `python tools/solve_variants.py write` writes this",
        "section, the plot and the table shipped as `katra/data/solved_variants.json`,",
        "which `katra.testing.solved_variants()` reads. The proof of every settled start",
        f"whose proof is under {PROOF_BYTES // 1000} KB ships gzipped as",
        "`katra/data/proofs_variants/<game-id>.proof.gz`; `gunzip -c` it to a file and",
        "`katra solve --check FILE` checks it on the reference backend.",
        "",
        "In short (the rows below, counted):",
        "",
        "| family | starts | South wins | North wins | draws | no forced result | over at "
        "the start | open |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for family, nrows, name in FAMILIES:
        mine = [r for r in rows if (r["family"], r["rows"]) == (family, nrows)]
        south = sum(r["result"].startswith("South wins") for r in mine)
        north = sum(r["result"].startswith("North wins") for r in mine)
        draws = sum(r["result"].startswith("draw") for r in mine)
        counts = [sum(r["status"] == k for r in mine) for k in ("no-result", "over", "open")]
        out.append(f"| {name} | {len(mine)} | {south} | {north} | {draws} | "
                   + " | ".join(str(c) for c in counts) + " |")
    out += [
        "",
        "| family | board | seeds | result from the start | best move | df-pn nodes | "
        "positions | CPU | command |",
        "|---|---|---:|---|---|---:|---:|---:|---|",
    ]
    out += ["| " + " | ".join(cell(r)) + " |" for r in rows]
    out += ["", "**Where each family stops.**", ""]
    for family, nrows, name in FAMILIES:
        note = NOTES.get(family_key(family, nrows), "")
        out.append(f"* {name}: {stops(rows, family, nrows, meta['seeds_cap'])}"
                   + (f" {note}" if note else ""))
    out += ["", "### Growth", "",
            "![Nodes of df-pn for each start against the board's holes, one series a "
            "family](solved_variants.svg)", "",
            "Each point is a start (filled: settled; a triangle: open beyond the nodes at its",
            "height, its budget for the table's rows, the measured bound for the named games",
            "of the extrapolation below), its nodes on a log scale against the board's holes;",
            "the dashed lines are the fits below, extended to the named games' holes.",
            "", "### Extrapolation to the open named games", ""]
    out += extrapolation(rows, meta)
    out.append(END)
    return "\n".join(out) + "\n"


#: df-pn runs that left a named start open: the most nodes each was given, and where
#: the run is told ("Start positions" of docs/solved.md, or its command).
KNOWN_OPEN = {"katro-4x6": 9_200_000_000, "gore": 16_400_000_000, "katro": 1_000_000_000,
              "katra-mpantsaka": 50_000_000, "katra-mpantsaka-simplified": 50_000_000}
KNOWN_OPEN_HOW = {
    "katro": "`katra solve katro --nodes 1000000000 --tt-bits 24`: 259 s of CPU",
}


def duration(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds / 60:.2g} min"
    if seconds < 86400 * 365:
        return f"{seconds / 3600:.2g} h"
    return f"{seconds / (86400 * 365):.2g} years"


def open_below(rows: list[dict], family: str, nrows: int, holes: int,
               besides: str = "") -> dict | None:
    """The family's smallest start left open by the budget on a board of at most
    ``holes`` holes (other than the start ``besides``), or None."""
    found = [r for r in rows if (r["family"], r["rows"]) == (family, nrows)
             and dfpn_status(r) == "open" and r["rows"] * r["cols"] <= holes
             and r["id"] != besides]
    return min(found, key=lambda r: (r["rows"] * r["cols"], r["seeds"])) if found else None


def times(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.2g}"


def steps(rows: list[dict], family: str, nrows: int) -> list[str]:
    """The growth from board to board of a family's hardest settled start, in words."""
    pts = fit_points(rows, family, nrows)
    out = [f"{times(10 ** (b - a))} times from {int(h0)} to {int(h1)} holes"
           for (h0, a), (h1, b) in itertools.pairwise(pts)]
    last = pts[-1] if pts else None
    first_open = open_below(rows, family, nrows, 10 ** 6)
    if last is not None and first_open is not None:
        holes = first_open["rows"] * first_open["cols"]
        if holes > last[0]:
            out.append(f"more than {times(first_open['budget'] / 10 ** last[1])} times from "
                       f"{int(last[0])} to {holes} holes (`{first_open['id']}` open)")
    return out


def extrapolation(rows: list[dict], meta: dict) -> list[str]:
    out = [
        "Per family, log10 of df-pn's nodes is fitted against the holes, a straight line",
        "by least squares over the hardest settled start of each board (the most nodes over",
        f"its seeds; boards whose hardest start took fewer than {MIN_FIT_NODES:,} nodes left",
        "out). The spread is the residuals' standard deviation (log10 units, n - 2 degrees",
        "of freedom: none with two boards); the range is the prediction plus or minus twice",
        "the spread. The rate is df-pn's nodes a CPU second over the family's starts of",
        "half a second or more.",
        "",
        "| family | boards fitted | fit: log10 nodes | spread | growth board to board |"
        " nodes a CPU second |",
        "|---|---|---|---:|---|---:|",
    ]
    fits = {}
    for family, nrows, name in FAMILIES:
        pts = fit_points(rows, family, nrows)
        f = fit(pts)
        fits[(family, nrows)] = (f, pts)
        speed = rate(rows, family, nrows)
        speed_text = f"{speed / 1e6:.1f} M" if speed else ""
        growth = "; ".join(steps(rows, family, nrows))
        if f is None:
            out.append(f"| {name} | {len(pts)} | too few boards to fit | | {growth} | "
                       f"{speed_text} |")
            continue
        a, b, sd = f
        holes = ", ".join(str(int(h)) for h, _ in pts)
        out.append(f"| {name} | {len(pts)} (holes {holes}) | {a:.2f} + {b:.3f} x holes | "
                   f"{'' if sd is None else f'{sd:.2f}'} | {growth} | {speed_text} |")
    seed_fits = {}
    out += ["", "The same fit against the seeds on the board (holes x seeds a hole), over the "
            "hardest settled start of each total:", "",
            "| family | totals fitted | fit: log10 nodes | spread |", "|---|---|---|---:|"]
    for family, nrows, name in FAMILIES:
        pts = fit_points(rows, family, nrows, by_seeds=True)
        f = fit(pts)
        seed_fits[(family, nrows)] = f
        if f is None:
            out.append(f"| {name} | {len(pts)} | too few totals to fit | |")
            continue
        a, b, sd = f
        out.append(f"| {name} | {len(pts)} ({int(pts[0][0])} to {int(pts[-1][0])} seeds) | "
                   f"{a:.2f} + {b:.4f} x seeds | {'' if sd is None else f'{sd:.2f}'} |")
    out += ["", "| named game | holes | seeds a hole | by holes: predicted (range) | "
            "by seeds: predicted (range) | CPU at the family's rate (by holes) | "
            "open beyond (measured) | the fits against it |",
            "|---|---:|---:|---|---|---:|---|---|"]

    def predict(f: tuple | None, x: int) -> tuple[str, float | None]:
        if f is None:
            return "no fit", None
        a, b, sd = f
        y = a + b * x
        rng = "" if sd is None else f" ({power(y - 2 * sd)} to {power(y + 2 * sd)})"
        return f"{power(y)}{rng}", y + 2 * (sd or 0)

    for ident, name, family, nrows, cols, seeds in OPEN_NAMED:
        f, _ = fits[(family, nrows)]
        holes = nrows * cols
        smaller = open_below(rows, family, nrows, holes, besides=ident)
        how = KNOWN_OPEN_HOW.get(ident, "\"Start positions\" above")
        bounds = [f"{KNOWN_OPEN[ident]:.2g} nodes (this start, {how})".replace("e+0", "e")
                  .replace("e+", "e")]
        if smaller is not None:
            bounds.append(f"{smaller['budget']:.2g} nodes (`{smaller['id']}`)".replace(
                "e+0", "e").replace("e+", "e"))
        measured = "; ".join(bounds)
        by_holes, top_h = predict(f, holes)
        by_seeds, top_s = predict(seed_fits[(family, nrows)], holes * seeds)
        speed = rate(rows, family, nrows)
        cpu = duration(10 ** (f[0] + f[1] * holes) / speed) if f is not None and speed else ""
        tops = [t for t in (top_h, top_s) if t is not None]
        verdict = ("" if not tops else "both refuted: below the measured bound"
                   if all(t < math.log10(KNOWN_OPEN[ident]) for t in tops) and len(tops) == 2
                   else "refuted: below the measured bound"
                   if all(t < math.log10(KNOWN_OPEN[ident]) for t in tops)
                   else "not refuted" if all(t >= math.log10(KNOWN_OPEN[ident]) for t in tops)
                   else "by holes " + ("refuted" if top_h is not None and top_h < math.log10(
                       KNOWN_OPEN[ident]) else "not refuted") + ", by seeds " + (
                       "refuted" if top_s is not None and top_s < math.log10(KNOWN_OPEN[ident])
                       else "not refuted"))
        out.append(f"| {name} (`{ident}`) | {holes} | {seeds} | {by_holes} | {by_seeds} | "
                   f"{cpu} | {measured} | {verdict} |")
    out += ["", "The named games' own series, the same seeds a hole on the boards of their rows "
            "(\"not in the table\": the growth rule stopped before it; the named game's "
            "bound is the measured one):", "",
            "| named game | series |", "|---|---|"]
    for ident, name, family, nrows, cols, seeds in OPEN_NAMED:
        cells = []
        for c in range(VARIANT_COLS_OF(family, nrows)[0], cols + 1):
            here = next((r for r in rows if (r["family"], r["rows"], r["cols"], r["seeds"])
                         == (family, nrows, c, seeds)), None)
            if c == cols:
                what = f"open beyond {KNOWN_OPEN[ident]:,}"
            elif here is None:
                what = "not in the table"
            elif dfpn_status(here) == "settled":
                what = f"{here['nodes']:,}"
            elif dfpn_status(here) == "open":
                what = f"open beyond {here['budget']:,}"
            else:
                what = here["result"]
            cells.append(f"{nrows}x{c}: {what}")
        out.append(f"| {name} ({seeds} a hole) | {'; '.join(cells)} |")
    out += ["", READING, ""]
    out += reach(rows, fits)
    return out


#: How to read the fits (the families' numbers are in the tables above it).
READING = (
    "**Reading the fits.** The straight lines are weak guides. Against the holes, the growth "
    "of Katro on 4 rows steepens board by board, and the measured bounds refute the lines "
    "for Katro 4x6 (below). Katro on 6 rows has a spread of more than a factor of ten, so "
    "its prediction for Katro (6x6) spans five orders of magnitude, and the billion nodes "
    "that left it open lie inside them; the game's own series (above) grew 38 to 188 times "
    "a column from 6x3 to 6x5, which from 6x5's 6.6 million nodes gives 2.5e8 to 1.2e9 for "
    "6x6: the billion nodes spent in vain rule out most of that range, so the growth "
    "steepens at 6x6 as it does at 4x6. Against the seeds on the board, Katro's slopes are "
    "about zero: more seeds a hole often give a quick win, and the hardest start of a board "
    "is one of its fewest seeds. Goré keeps at most 8 holes, so its seeds drive the cost: "
    "its two settled boards (4 and 8 holes) fit a line of two points, no spread, and the "
    "named game's 48 seeds lie far beyond its 24 seeds fitted. Katra Mpantsaka has nothing "
    "to fit: df-pn settles none of its starts, and retrograde analysis, which does, counts "
    "positions, not df-pn's nodes. Djenon-aboure, whose named start is settled, fits "
    "best against the seeds (a spread of about a factor of five).")


def VARIANT_COLS_OF(family: str, nrows: int) -> tuple[int, int]:
    from katra._games import VARIANT_COLS
    return VARIANT_COLS[(rules_family(family)[0], nrows)]


def reach(rows: list[dict], fits: dict) -> list[str]:
    """What the numbers say of Katro 4x6 and a cluster, in words."""
    f, _ = fits[("katro", 4)]
    speed = rate(rows, "katro", 4)
    if f is None or not speed:
        return []
    a, b, _ = f
    y = a + b * 24
    known = KNOWN_OPEN["katro-4x6"]
    five = [r for r in rows if r["id"] == "katro-4x5-s2" and dfpn_status(r) == "settled"]
    s1 = next((r for r in rows if r["id"] == "katro-4x6-s1"), None)
    out = [f"**Katro 4x6 and a cluster.** The fit for Katro on 4 rows puts the start of "
           f"Katro 4x6 at about {power(y)} nodes, but df-pn has spent "
           f"{known / 1e9:.1f} billion nodes on that start without settling it "
           f"(\"Start positions\" above)"]
    if s1 is not None and dfpn_status(s1) == "open":
        out[0] += f", and `katro-4x6-s1` is open beyond {s1['budget']:,} nodes"
        out[0] += (": the cost grows faster than the straight line from 20 holes on, and the "
                   "fit is refuted there (a lower estimate at best).")
    else:
        out[0] += ": the fit is refuted there (a lower estimate at best)."
    if s1 is not None and dfpn_status(s1) == "settled":
        out[0] += (f" With one seed a hole the board is settled (`katro-4x6-s1`, "
                   f"{s1['result']}, in {s1['nodes']:,} nodes with a table of "
                   f"2**{s1['tt_bits']} entries), so the second seed multiplies the cost more "
                   f"than {known / s1['nodes']:,.0f} times.")
    if five:
        out[0] += (f" With two seeds a hole, one more column (4x5 to 4x6) multiplied it more "
                   f"than {known / five[0]['nodes']:,.0f} times (from {five[0]['nodes']:,} "
                   f"nodes to beyond {known / 1e9:.1f} billion).")
    low, high = 1e11, 1e13
    out[0] += (
        f" Were the start settled within 10 to 1,000 times the measured bound, {power(11)} to "
        f"{power(13)} nodes, df-pn would need {low / speed / 3600:,.0f} to "
        f"{high / speed / 3600:,.0f} core-hours at the rate measured here "
        f"({speed / 1e6:.1f} million nodes a CPU second), {low / speed / 3600 / 100:,.2g} to "
        f"{high / speed / 3600 / 100:,.2g} hours on 100 cores before the split's overheads. "
        f"What a cluster run takes: df-pn split over it (`katra solve katro-4x6 "
        f"--scheduler ADDRESS --tt-bits 27`, docs/solve.md, \"Splitting df-pn\"), a table of "
        f"2**27 entries (3 GiB) in each worker process (processes share no table, so each "
        f"searches again what the others proved), and no resuming (`--dfpn-table` keeps one "
        f"thread's table only), so a stopped run starts again. Nothing measured here says "
        f"that {power(11)} nodes suffice; raising the measured bound on one machine first "
        f"(`katra solve katro-4x6 --tt-bits 25 --dfpn-table FILE`, in pieces) is the "
        f"cheaper test.")
    return out


def svg(rows: list[dict], meta: dict) -> str:
    """The growth plot: log10 nodes against holes, one colour a family."""
    width, height = 800, 470
    left, right, top, bottom = 70, 250, 30, 55
    pw, ph = width - left - right, height - top - bottom
    xmax = 36
    ymax = 12
    budget = math.log10(meta["budget"])

    def px(h: float) -> float:
        return left + pw * h / xmax

    def py(v: float) -> float:
        return top + ph * (1 - v / ymax)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<defs><clipPath id="plot"><rect x="{left}" y="{top}" width="{pw}" '
           f'height="{ph}"/></clipPath></defs>']
    for v in range(0, ymax + 1, 2):
        out.append(f'<line x1="{left}" y1="{py(v):.1f}" x2="{left + pw}" y2="{py(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 16}" y="{py(v) + 4:.1f}" text-anchor="end">10</text>')
        out.append(f'<text x="{left - 15}" y="{py(v) - 2:.1f}" font-size="9">{v}</text>')
    for h in range(0, xmax + 1, 4):
        out.append(f'<line x1="{px(h):.1f}" y1="{top}" x2="{px(h):.1f}" y2="{top + ph}" '
                   f'stroke="#eee"/>')
        out.append(f'<text x="{px(h):.1f}" y="{top + ph + 18}" text-anchor="middle">{h}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" '
               f'stroke="#333"/>')
    out.append(f'<text x="{left + pw / 2}" y="{height - 12}" text-anchor="middle">'
               f'holes on the board</text>')
    out.append(f'<text x="18" y="{top + ph / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {top + ph / 2})">df-pn nodes (log scale)</text>')
    out.append(f'<line x1="{left}" y1="{py(budget):.1f}" x2="{left + pw}" y2="{py(budget):.1f}" '
               f'stroke="#000" stroke-dasharray="6 3"/>')

    named: dict[int, list[str]] = {}
    for _, name, _, nrows, cols, _ in OPEN_NAMED:
        named.setdefault(nrows * cols, []).append(name.replace(" (simplified)", ", simpl."))
    for holes, names in named.items():
        x = px(holes)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}" stroke="#999" '
                   f'stroke-dasharray="1 3"/>')
        out.append(f'<text x="{x - 4:.1f}" y="{top + ph - 6}" font-size="10" fill="#555" '
                   f'transform="rotate(-90 {x - 4:.1f} {top + ph - 6})">'
                   f'{" / ".join(names)} (open)</text>')
    for i, (family, nrows, name) in enumerate(FAMILIES):
        colour = COLOURS[i]
        shift = (i - 2.5) * 0.18          # side by side where families share a hole count
        pts = fit_points(rows, family, nrows)
        f = fit(pts)
        if f is not None:
            a, b, _ = f
            x0 = min(h for h, _ in pts)
            x1 = max([nrows * c for i2, n2, f2, r2, c, s in
                      [(0, 0, *o[2:]) for o in OPEN_NAMED] if (f2, r2) == (family, nrows)]
                     + [max(h for h, _ in pts)])
            out.append(f'<line x1="{px(x0):.1f}" y1="{py(a + b * x0):.1f}" x2="{px(x1):.1f}" '
                       f'y2="{py(a + b * x1):.1f}" stroke="{colour}" stroke-dasharray="3 3" '
                       f'clip-path="url(#plot)"/>')
        for r in rows:
            if (r["family"], r["rows"]) != (family, nrows):
                continue
            x = px(r["rows"] * r["cols"] + shift)
            if dfpn_status(r) == "settled" and r["nodes"] > 0:
                y = py(math.log10(r["nodes"]))
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}" '
                           f'fill-opacity="0.8"><title>{r["id"]}: {r["result"]}, '
                           f'{r["nodes"]:,} nodes</title></circle>')
            elif dfpn_status(r) == "open":
                y = py(budget)
                out.append(f'<path d="M{x:.1f},{y - 8:.1f} l-5,8 h10 z" fill="none" '
                           f'stroke="{colour}" stroke-width="1.5"><title>{r["id"]}: '
                           f'{r["result"]}</title></path>')
        for ident, title, fam, r2, cols, _ in OPEN_NAMED:
            if (fam, r2) == (family, nrows):
                x, y = px(r2 * cols + shift), py(math.log10(KNOWN_OPEN[ident]))
                out.append(f'<path d="M{x:.1f},{y - 8:.1f} l-5,8 h10 z" fill="none" '
                           f'stroke="{colour}" stroke-width="1.5"><title>{title}: open beyond '
                           f'{KNOWN_OPEN[ident]:,} nodes</title></path>')
        ly = top + 10 + 20 * i
        lx = left + pw + 16
        out.append(f'<circle cx="{lx}" cy="{ly}" r="4" fill="{colour}"/>')
        out.append(f'<text x="{lx + 10}" y="{ly + 4}">{name}</text>')
    ly = top + 10 + 20 * len(FAMILIES) + 10
    lx = left + pw + 16
    out.append(f'<path d="M{lx},{ly - 6} l-5,8 h10 z" fill="none" stroke="#333"/>')
    out.append(f'<text x="{lx + 10}" y="{ly + 2}">open beyond the nodes given</text>')
    out.append(f'<line x1="{lx - 6}" y1="{ly + 20}" x2="{lx + 6}" y2="{ly + 20}" '
               f'stroke="#333" stroke-dasharray="3 3"/>')
    out.append(f'<text x="{lx + 10}" y="{ly + 24}">fit, extended to the</text>')
    out.append(f'<text x="{lx + 10}" y="{ly + 38}">named game\'s holes</text>')
    out.append(f'<line x1="{lx - 6}" y1="{ly + 60}" x2="{lx + 6}" y2="{ly + 60}" '
               f'stroke="#000" stroke-dasharray="6 3"/>')
    out.append(f'<text x="{lx + 10}" y="{ly + 64}">df-pn\'s first budget,</text>')
    out.append(f'<text x="{lx + 10}" y="{ly + 78}">{meta["budget"]:,}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(journal: dict[str, dict]) -> None:
    rows = table_rows(journal)
    smaller = [r["id"] for r in journal.values()
               if "exact_budget" in r and exact_short(r, EXACT_NODES)]
    if smaller:      # the table's exact budget would not be theirs
        raise SystemExit(f"the exact step of {', '.join(smaller)} ran with fewer than "
                         f"{EXACT_NODES:,} nodes: `exact` them first")
    budgets = {(r["budget"], r["tt_bits"]) for r in journal.values()}
    if not budgets <= {(NODES, TT_BITS), (EXTENDED_NODES, EXTENDED_TT_BITS)}:
        raise SystemExit(f"the journal has other budgets and tables: {sorted(budgets)}")
    short = [r["id"] for r in journal.values() if extended_short(r, EXTENDED_NODES)]
    if short:        # the table's second budget would not be theirs
        raise SystemExit(f"open at {NODES:,} nodes without df-pn's {EXTENDED_NODES:,}: "
                         f"{', '.join(short)}: `run` them first")
    meta = {"budget": NODES, "tt_bits": TT_BITS, "extended_budget": EXTENDED_NODES,
            "extended_tt_bits": EXTENDED_TT_BITS, "exact_nodes": EXACT_NODES,
            "seeds_cap": SEEDS_CAP, "proof_bytes": PROOF_BYTES,
            "retro_positions": RETRO_POSITIONS}
    DATA.write_text(json.dumps({"format": 1, **meta, "rows": rows}, indent=1,
                               ensure_ascii=False) + "\n", encoding="utf-8")
    kept = {r["proof"] for r in rows if r.get("proof")}
    stale = sorted(p.name for p in PROOFS.iterdir() if p.name not in kept) if PROOFS.exists() \
        else []
    if stale:        # a row being solved, or one left out of the journal: not removed here
        print(f"proof files of no row: {', '.join(stale)}")
    text = DOC.read_text(encoding="utf-8")
    new = section(rows, meta)
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + new + "\n" + rest.split(END, 1)[1].lstrip("\n")
    else:
        marker = "\n## Beyond the bounded solver's reach"
        head, rest = text.split(marker, 1)
        text = head.rstrip("\n") + "\n\n" + new + marker + rest
    DOC.write_text(text, encoding="utf-8")
    SVG.write_text(svg(rows, meta), encoding="utf-8")
    print(f"{DATA.relative_to(ROOT)}: {len(rows)} rows; {DOC.relative_to(ROOT)}; "
          f"{SVG.relative_to(ROOT)}")


# ------------------------------------------------------------------ main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("run", "one", "exact"):
        p = sub.add_parser(name)
        p.add_argument("--nodes", type=int, default=NODES)
        p.add_argument("--tt-bits", type=int, default=TT_BITS)
        p.add_argument("--exact-nodes", type=int, default=EXACT_NODES)
        p.add_argument("--proof-dir", type=Path, default=PROOFS)
        p.add_argument("--retro-positions", type=int, default=RETRO_POSITIONS)
        p.add_argument("--extended-nodes", type=int, default=EXTENDED_NODES)
        p.add_argument("--extended-tt-bits", type=int, default=EXTENDED_TT_BITS)
    sub.choices["one"].add_argument("game")
    sub.choices["one"].add_argument("--previous", type=json.loads, default=None)
    sub.choices["run"].add_argument("--journal", type=Path, default=JOURNAL)
    sub.choices["run"].add_argument("--seeds-cap", type=int, default=SEEDS_CAP)
    sub.choices["run"].add_argument("--family", action="append",
                                    help="FAMILY-ROWS, e.g. katro-4 (default: all)")
    sub.choices["exact"].add_argument("game", nargs="*",
                                      help="game ids (default: every row of the journal)")
    sub.choices["exact"].add_argument("--journal", type=Path, default=JOURNAL)
    w = sub.add_parser("write")
    w.add_argument("--journal", type=Path, default=JOURNAL)
    args = parser.parse_args(argv)
    if args.what == "one":
        print(json.dumps(solve_one(args.game, args.nodes, args.tt_bits, args.exact_nodes,
                                   args.proof_dir, args.retro_positions, args.previous,
                                   args.extended_nodes, args.extended_tt_bits)))
    elif args.what == "run":
        run(args)
    elif args.what == "exact":
        run_exact(args)
    else:
        # the journal of a run, else the table shipped (to write the docs and plot again)
        journal = read_journal(args.journal) or {
            row["id"]: row for row in json.loads(DATA.read_text(encoding="utf-8"))["rows"]}
        write(journal)
    return 0


if __name__ == "__main__":
    sys.exit(main())
