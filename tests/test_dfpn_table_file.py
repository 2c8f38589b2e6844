"""df-pn's table kept in a file (``katra.solve(dfpn_table=FILE)``, ``katra solve
--dfpn-table FILE``; docs/solve.md, "Resuming a long solve"): a solve stopped by
its budget or by Ctrl-C resumes from the file to the value a solve in one go
finds, in fewer nodes than starting afresh; a file that is not a table, another
game's, another build's, truncated or of another size is refused with one clear
error and left as it was; a damaged entry costs nodes, never the value."""
from __future__ import annotations

import _thread
import io
import json
import os
import signal

import pytest

import katra
from katra.api import dfpn_table_info
from katra.cli import main
from katra.testing import check_proof

#: Positions df-pn settles in 60 to 1,100,000 nodes, of every family (solved
#: suites' and deep suites' entries, and two starts).
POSITIONS = [
    "katro-4x4",
    "djenon-aboure",
    "katro 0,3,1,2,5,3/2,1,7,1,2,0/10,3,4,2,3,7/2,0,0,0,0,1/1,4,1,0,2,0/1,0,0,3,0,1 S",
    "katro 1,0,0,0,0,0/0,1,2,3,1,7/0,4,0,0,1,1/0,11,1,0,3,3/1,7,1,0,7,1/6,7,1,1,1,0 N",
    "katro-4x6 0,0,1,1,0,0/0,0,0,0,0,0/0,4,8,2,1,4/10,9,3,1,4,0 N",
    "katra-mpantsaka 1,27,1,2,0,6,5,0/3,0,1,1,11,0,4,1/0,0,1,0,0,0,0,0/0,0,0,0,0,0,0,0 S",
    "katra-mpantsaka-simplified 4,8,0,8,1,5,2,5/3,6,11,9,0,0,1,0/0,1,0,0,0,0,0,0/"
    "0,0,0,0,0,0,0,0 N",
    "gore 2,0,1,0/0,0,3,1 N stores=12,2 owners=SSSS/NNNN",
    "gore 1,16,17,6/8,0,0,0 S stores=0,0 owners=NNNN/NSSN",
]
BITS = 18


@pytest.mark.parametrize("position", POSITIONS)
def test_a_solve_stopped_by_its_budget_resumes_from_the_file(tmp_path, position):
    """Half the nodes, stopped; then the rest from the file: the value of one
    solve in one go, in fewer nodes than a new solve; the file counts both runs,
    and a third solve is answered from what the file holds (proofs stored by
    the second: fewer nodes again, none when every proof is still there)."""
    path = tmp_path / "t.dfpn"
    fresh = katra.solve(position, tt_bits=BITS)
    assert fresh.outcome is not None
    first = katra.solve(position, tt_bits=BITS, nodes=max(1, fresh.nodes // 2), dfpn_table=path)
    assert first.outcome is None
    info = dfpn_table_info(path)
    assert (info.game, info.tt_bits, info.nodes, info.runs) == (
        position.split()[0], BITS, first.nodes, 1)
    assert info.size == path.stat().st_size > 24 << BITS
    resumed = katra.solve(position, dfpn_table=path)      # the file's size: no tt_bits needed
    assert resumed.outcome == fresh.outcome
    # What the stopped run's finished visits stored is not searched again (the
    # visits cut short on its last path stored nothing: tiny solves gain nothing)
    assert resumed.nodes < fresh.nodes if fresh.nodes > 1000 else resumed.nodes <= fresh.nodes
    assert dfpn_table_info(path).nodes == first.nodes + resumed.nodes
    again = katra.solve(position, dfpn_table=path, tt_bits=BITS)
    assert (again.outcome, dfpn_table_info(path).runs) == (fresh.outcome, 3)
    assert again.nodes < resumed.nodes or again.nodes == 0


def test_a_resumed_solve_writes_a_proof_the_reference_accepts(tmp_path):
    position = POSITIONS[4]
    path = tmp_path / "t.dfpn"
    assert katra.solve(position, tt_bits=BITS, nodes=20_000, dfpn_table=path).outcome is None
    proof = io.StringIO()
    result = katra.solve(position, dfpn_table=path, proof=proof)
    (tmp_path / "x.proof").write_text(proof.getvalue())
    summary = check_proof(str(tmp_path / "x.proof"))
    assert (summary.outcome, result.outcome) == ("loss", "loss")
    assert summary.plies <= result.plies


@pytest.fixture
def python_sigint_handler():
    """Python's own SIGINT handler (KeyboardInterrupt) while the test runs:
    ``_thread.interrupt_main()`` does nothing where SIGINT is ignored, as it is
    in a test run started in the background by a shell or under nohup."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_leaves_a_file_the_solve_resumes_from(tmp_path, python_sigint_handler):
    """Ctrl-C (``_thread.interrupt_main()`` from the progress callback, once past
    the first 2**18 nodes) stops the solve; the table is written on the way out,
    and the next solve settles the value from it."""
    position = POSITIONS[3]
    path = tmp_path / "t.dfpn"
    fresh = katra.solve(position, tt_bits=BITS)

    def interrupt(progress):
        if progress.nodes > 0:
            _thread.interrupt_main()

    with pytest.raises(KeyboardInterrupt):
        katra.solve(position, tt_bits=BITS, dfpn_table=path, progress=interrupt)
    info = dfpn_table_info(path)
    assert info.runs == 1 and 0 < info.nodes < fresh.nodes
    assert not (tmp_path / "t.dfpn.part").exists()
    resumed = katra.solve(position, dfpn_table=path)
    assert resumed.outcome == fresh.outcome and resumed.nodes < fresh.nodes


def test_damaged_entries_cost_nodes_never_the_value(tmp_path):
    """Bytes of the file's entries overwritten (a slot's words no longer match its
    seal): those entries read as empty, and the value is found again."""
    position = POSITIONS[4]
    path = tmp_path / "t.dfpn"
    fresh = katra.solve(position, tt_bits=BITS, dfpn_table=path)
    data = bytearray(path.read_bytes())
    body = data.index(b"\n", data.index(b"\n") + 1) + 1
    for at in range(body + 5, len(data), 97):
        data[at] ^= 0x5A
    path.write_bytes(bytes(data))
    again = katra.solve(position, dfpn_table=path)
    assert (again.outcome, again.plies is not None) == (fresh.outcome, True)
    assert again.nodes > 0


def _header(path):
    lines = path.read_bytes().split(b"\n", 2)
    return json.loads(lines[1]), lines


def _rewrite(path, **changes):
    header, lines = _header(path)
    header.update(changes)
    path.write_bytes(lines[0] + b"\n" + json.dumps(header).encode() + b"\n" + lines[2])


def _made(tmp_path):
    path = tmp_path / "t.dfpn"
    katra.solve("djenon-aboure", tt_bits=12, nodes=1000, dfpn_table=path)
    return path


@pytest.mark.parametrize("spoil, arguments, words", [
    (None, {"position": "gore"}, "a df-pn table of djenon-aboure, not gore"),
    (None, {"tt_bits": 13}, "holds 2**12 entries, not 2**13"),
    (lambda p: p.write_bytes(p.read_bytes()[:-1]), {}, "truncated df-pn table file"),
    (lambda p: p.write_bytes(p.read_bytes() + b"\0"), {}, "damaged df-pn table file"),
    (lambda p: p.write_bytes(b"katra-dfpn-table 1\n"), {}, "truncated df-pn table file"),
    (lambda p: p.write_bytes(b"katra-proof 1\n"), {}, "not a katra df-pn table file"),
    (lambda p: _rewrite(p, fingerprint="0" * 16), {}, "another katra build"),
    (lambda p: _rewrite(p, tt_bits=40), {}, "outside 10..28"),
    (lambda p: _rewrite(p, game="chess"), {}, "unknown game 'chess'"),
    (lambda p: _rewrite(p, nodes=-1), {}, "its header is not katra's"),
    (None, {"max_plies": 5}, "without max_plies, jobs or executor"),
    (None, {"jobs": 2}, "without max_plies, jobs or executor"),
])
def test_a_bad_file_or_call_is_refused_and_the_file_left_as_it_was(tmp_path, spoil, arguments,
                                                                   words):
    path = _made(tmp_path)
    if spoil is not None:
        spoil(path)
    before = path.read_bytes()
    arguments = {"position": "djenon-aboure", **arguments}
    with pytest.raises(katra.ArgumentError) as raised:
        katra.solve(arguments.pop("position"), dfpn_table=path, **arguments)
    assert words in str(raised.value)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["t.dfpn"]


def test_a_path_that_cannot_hold_a_table_is_refused_before_the_search(tmp_path):
    with pytest.raises(katra.ArgumentTypeError, match="dfpn_table must be None or a path"):
        katra.solve("katro-4x4", dfpn_table=3)
    with pytest.raises(katra.ArgumentError, match="a directory"):
        katra.solve("katro-4x4", dfpn_table=tmp_path)
    with pytest.raises(katra.ArgumentError, match="cannot write the df-pn table file there"):
        katra.solve("katro-4x4", dfpn_table=tmp_path / "no" / "t.dfpn")
    with pytest.raises(katra.ArgumentError, match="cannot read the df-pn table file"):
        dfpn_table_info(tmp_path / "none.dfpn")


def test_cli_resumes_and_reports_the_file(tmp_path, capsys):
    path = str(tmp_path / "t.dfpn")
    assert main(["solve", "djenon-aboure", "--nodes", "30000", "--tt-bits", "16",
                 "--dfpn-table", path]) == 0
    out = capsys.readouterr().out
    assert "no result within 30000 nodes" in out
    assert f"table    {path} (2**16 entries; 30000 nodes in 1 run)" in out
    assert main(["solve", "djenon-aboure", "--dfpn-table", path, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["outcome"], record["to_move"]) == ("win", "S")
    assert record["dfpn_table"] == {"file": path, "tt_bits": 16,
                                    "nodes": 30000 + record["nodes"], "runs": 2}
    assert main(["solve", "gore", "--dfpn-table", path]) == 2
    err = capsys.readouterr().err
    assert "a df-pn table of djenon-aboure, not gore" in err and err.count("\n") == 1


def test_sigterm_stops_a_cli_solve_and_leaves_its_table(tmp_path):
    """`katra solve --dfpn-table FILE` stopped by SIGTERM (a batch system's time
    limit) writes the table as for Ctrl-C: one line, exit 1, a file the next
    run reads.  Driven by the progress lines, not the clock (the Katro start
    runs for hours)."""
    import signal
    import subprocess
    import sys

    path = tmp_path / "t.dfpn"
    child = subprocess.Popen(
        [sys.executable, "-m", "katra", "solve", "katro", "--tt-bits", "16", "--progress",
         "--dfpn-table", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [child.stderr.readline() for _ in range(2)]   # 0 nodes, then some
        assert all(line.startswith("df-pn, S win: ") for line in lines), lines
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == 1, (out, err)
    assert err.splitlines()[-1] == (f"katra solve: terminated (SIGTERM); df-pn's table is "
                                    f"in {path}")
    info = dfpn_table_info(path)
    assert (info.game, info.tt_bits, info.runs) == ("katro", 16, 1) and info.nodes > 0
    resumed = katra.solve("katro", nodes=1000, dfpn_table=path)
    assert resumed.outcome is None and dfpn_table_info(path).runs == 2
