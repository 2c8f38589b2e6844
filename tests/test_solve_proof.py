"""Proof certificates (docs/solve.md): written from the solver, checked by
katra.testing.check_proof with the reference backend only; cut and altered
proofs rejected with the wrong line named; the `katra solve` command."""
import io
import json
import re

import pytest

import katra
from katra.api import write_proof
from katra.cli.main import main
from katra.testing import ProofError, check_proof

POSITIONS = [
    ("djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=23,23", "win", 1),
    ("djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=22,24", "draw", 1),
    ("djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24", "loss", 2),
    ("gore 3,0,0,0/0,0,0,0 S stores=20,25 owners=NNNN/SSSS", "loss", 2),
    ("katro-4x4", "win", 17),
]

START = "katra-proof 1\nposition katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S"


def proof_text(position):
    """The bounded solver's result and proof (tests/test_dfpn.py: df-pn's)."""
    result = katra.solve(position, 500)
    out = io.StringIO()
    write_proof(out, position, result)
    return result, out.getvalue()


def write(tmp_path, text, name="p.proof"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("position, outcome, plies", POSITIONS)
def test_proofs_round_trip(tmp_path, position, outcome, plies):
    result, text = proof_text(position)
    assert (result.outcome, result.plies) == (outcome, plies)
    summary = check_proof(write(tmp_path, text))
    assert (summary.outcome, summary.plies) == (outcome, plies)
    assert summary.position == katra.api.load_position(position, "reference").text()


def test_draw_proof_holds_two_trees(tmp_path):
    _, text = proof_text("djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=22,24")
    assert text.splitlines() == [
        "katra-proof 1",
        "position djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=22,24",
        "claim draw 1",
        "tree S draw 1",
        "1 a1",
        "tree N draw 1",
        "1 a1",
        "end",
    ]


def test_a_small_proof_in_full():
    """A loss in 2 through a pass: North's tree answers South's only move (pass)
    and wins with its only move."""
    _, text = proof_text("djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24")
    assert text.splitlines()[2:] == ["claim loss 2", "tree N win 2", "1 pass", "2 f2", "end"]


def test_truncated_proofs_are_rejected(tmp_path):
    _, text = proof_text("katro-4x4")
    lines = text.splitlines()
    for keep in (1, 2, 3, 4, 10, len(lines) // 2, len(lines) - 2, len(lines) - 1):
        path = write(tmp_path, "\n".join(lines[:keep]) + "\n")
        with pytest.raises(ProofError, match=r"line \d+"):
            check_proof(path)


def test_cut_at_a_tree_boundary_is_rejected(tmp_path):
    _, text = proof_text("djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=22,24")
    lines = text.splitlines()
    path = write(tmp_path, "\n".join([*lines[:5], "end"]) + "\n")   # the second tree dropped
    with pytest.raises(ProofError, match="line 6: expected 'tree N draw 1'"):
        check_proof(path)


def test_altered_proofs_are_rejected_naming_the_line(tmp_path):
    _, text = proof_text("katro-4x4")
    lines = text.splitlines()
    moves = [i for i, line in enumerate(lines) if re.fullmatch(r"\d+ [a-d][1-4]", line)]
    # a move of the winner replaced by another square, a reply dropped, a depth changed
    for i in moves[:40:7]:
        depth, move = lines[i].split(" ")
        for other in ("a1", "b1", "c1", "d1", "a4", "b4", "c4", "d4"):
            if other != move:
                changed = [*lines[:i], f"{depth} {other}", *lines[i + 1:]]
                break
        path = write(tmp_path, "\n".join(changed) + "\n")
        with pytest.raises(ProofError, match=r"line \d+"):
            check_proof(path)
    i = moves[3]
    path = write(tmp_path, "\n".join(lines[:i] + lines[i + 1:]) + "\n")
    with pytest.raises(ProofError):
        check_proof(path)


def test_altered_claims_are_rejected(tmp_path):
    _, text = proof_text("katro-4x4")
    lines = text.splitlines()
    cases = {
        2: ("claim win 16", "line 4: expected 'tree S win 16'"),
        3: ("tree S win 16", "line 4: expected 'tree S win 17'"),
    }
    for index, (replacement, message) in cases.items():
        changed = [*lines[:index], replacement, *lines[index + 1:]]
        with pytest.raises(ProofError, match=re.escape(message)):
            check_proof(write(tmp_path, "\n".join(changed) + "\n"))
    # the claim made smaller with its tree: the bound runs out before the game ends
    changed = [*lines[:2], "claim win 16", "tree S win 16", *lines[4:]]
    with pytest.raises(ProofError, match="ply bound is used up"):
        check_proof(write(tmp_path, "\n".join(changed) + "\n"))
    # the claimed winner swapped
    changed = [*lines[:2], "claim loss 17", "tree N win 17", *lines[4:]]
    with pytest.raises(ProofError):
        check_proof(write(tmp_path, "\n".join(changed) + "\n"))


def test_a_proof_for_another_position_is_rejected(tmp_path):
    _, text = proof_text("katro-4x4")
    lines = text.splitlines()
    lines[1] = "position katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,3 S"
    with pytest.raises(ProofError, match=r"line \d+"):
        check_proof(write(tmp_path, "\n".join(lines) + "\n"))


def test_bad_references_are_rejected(tmp_path):
    _, text = proof_text("katro-4x4")
    lines = text.splitlines()
    ref = next(i for i, line in enumerate(lines) if " = " in line)
    head, _, target = lines[ref].partition(" = ")
    for bad in (str(ref + 1), "4", "1", str(int(target) + 1)):
        changed = [*lines[:ref], f"{head} = {bad}", *lines[ref + 1:]]
        with pytest.raises(ProofError, match=f"line {ref + 1}"):
            check_proof(write(tmp_path, "\n".join(changed) + "\n"))


@pytest.mark.parametrize("text, message", [
    ("", "line 1"),
    ("hello\n", "line 1"),
    ("katra-proof 1\n", "line 2"),
    ("katra-proof 1\nposition chess\nclaim win 1\nend\n", "line 2"),
    ("katra-proof 1\nposition katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S\nclaim win 1\nend\n",
     "finished"),
    (f"{START}\nclaim won 1\n", "line 3"),
    (f"{START}\nclaim win 0\n", "line 3"),
    (f"{START}\nclaim win x\n", "line 3"),
    ("katra-proof 1\nposition djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=23,23\n"
     "claim win 1\ntree S win 1\n1 a1\nend\nmore\n", "line 7: text after 'end'"),
    ("katra-proof 1\nposition djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=23,23\n"
     "claim win 1\ntree S win 1\n1 b1\nend\n", "line 5: b1 is not legal"),
    ("katra-proof 1\nposition djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=23,23\n"
     "claim win 1\ntree S win 1\n1 zz\nend\n", "line 5"),
    ("katra-proof 1\nposition djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=22,24\n"
     "claim win 1\ntree S win 1\n1 a1\nend\n", "line 5: the game ends here in a draw"),
])
def test_malformed_proofs(tmp_path, text, message):
    with pytest.raises(ProofError, match=message):
        check_proof(write(tmp_path, text))


def test_proof_error_is_a_value_error():
    assert issubclass(ProofError, ValueError) and issubclass(ProofError, katra.KatraError)


def test_no_proof_for_an_unproven_result():
    result = katra.solve("katro-4x4", 3)
    with pytest.raises(ValueError, match="nothing was proven"):
        write_proof(io.StringIO(), "katro-4x4", result)


# ------------------------------------------------------------ the command

def test_cli_solve_and_check(tmp_path, capsys):
    proof = tmp_path / "k.proof"
    assert main(["solve", "katro-4x4", "--max-plies", "500", "--proof", str(proof)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "result   South wins in 17 plies"
    assert out[2] == "best     b1"
    assert len(out[3].split()) == 1 + 17
    assert out[4] == "bound    17 plies searched"
    assert main(["solve", "--check", str(proof)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("proof OK: South wins within 17 plies\n")


def test_cli_tt_bits_sizes_the_table(capsys):
    """--tt-bits B: the solver's table holds 2**B entries; a table too small for
    the search costs nodes (df-pn finds again what it lost), never the value."""
    counts = {}
    for bits in ("10", "16"):
        assert main(["solve", "katro-4x4", "--tt-bits", bits, "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        assert (record["outcome"], record["to_move"]) == ("win", "S")
        counts[bits] = record["nodes"]
    assert counts["10"] > counts["16"]
    assert main(["solve", "katro-4x4", "--tt-bits", "12", "--max-plies", "17", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plies"] == 17


def test_cli_json_and_jobs(capsys):
    assert main(["solve", "djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24", "--json",
                 "--jobs", "2", "--max-plies", "10"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["outcome"], record["plies"], record["best_move"], record["pv"]) == (
        "loss", 2, "pass", ["pass", "f2"])


def test_cli_progress_of_a_split_solve(capsys):
    """--progress: a line per bound on stderr (not a terminal here) with the nodes and
    the root's subtrees proven; the result on stdout as without it."""
    assert main(["solve", "katro-4x4", "--max-plies", "500", "--jobs", "2", "--progress"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    bounds = [int(line.split(":")[0].split()[1]) for line in lines]
    assert bounds[0] == 1 and bounds[-1] == 17 and set(range(1, 18)) <= set(bounds)
    assert bounds == sorted(bounds)
    proven = lines[-1].split(", ")[-1]   # at least the winning subtree
    assert proven in [f"{n} of 4 subtrees proven" for n in (1, 2, 3, 4)], lines[-1]
    assert " nodes, " in lines[-1]
    assert "result   South wins in 17 plies" in captured.out


def test_cli_no_progress_unless_asked(capsys):
    assert main(["solve", "katro-4x4", "--max-plies", "4"]) == 0
    assert capsys.readouterr().err == ""


def test_cli_no_result(capsys):
    assert main(["solve", "katro-4x4", "--max-plies", "4"]) == 0
    assert "result   no result within 4 plies" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["solve"], "GAME_OR_POSITION is required"),
    (["solve", "katro-4x4", "--max-plies", "0"], "--max-plies"),
    (["solve", "katro-4x4", "--max-plies", "501"], "--max-plies"),
    (["solve", "chess"], "chess"),
    (["solve", "katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S"], "over"),
    (["solve", "katro-4x4", "--max-plies", "3", "--proof", "x.proof"], "no proof"),
    (["solve", "--check", "/nonexistent/file.proof"], "cannot read"),
    (["solve", "katro-4x4", "--check", "x"], "takes no position"),
    (["solve", "katro-4x4", "--max-plies", "0"], "1..500"),
    (["solve", "katro-4x4", "--nodes", "0"], "--nodes"),
    (["solve", "katro-4x4", "--nodes", "x"], "--nodes"),
    (["solve", "katro-4x4", "--max-plies", "5", "--nodes", "10"], "without --max-plies"),
    (["solve", "katro", "--nodes", "100", "--proof", "x.proof"], "no proof"),
    (["solve", "katro-4x4", "--proof", "no/x.proof"], "cannot write 'no/x.proof'"),
    (["solve", "katro-4x4", "--proof", "."], "Is a directory"),
    (["solve", "katro-4x4", "--tt-bits", "9"], "--tt-bits must be in 10..28"),
    (["solve", "katro-4x4", "--tt-bits", "29"], "--tt-bits must be in 10..28"),
    (["solve", "katro-4x4", "--tt-bits", "2.5"], "--tt-bits"),
])
def test_cli_bad_input(capsys, tmp_path, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)      # x.proof: never left behind
    assert main(argv) == 2
    assert not (tmp_path / "x.proof").exists()
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_cli_check_of_a_binary_file_names_it(tmp_path, capsys):
    path = tmp_path / "binary.proof"
    path.write_bytes(bytes(range(128, 256)))
    assert main(["solve", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{str(path)!r} is not a text file" in err and err.count("\n") == 1


def test_cli_check_names_the_wrong_line(tmp_path, capsys):
    path = write(tmp_path, "katra-proof 1\nposition djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S "
                           "stores=23,23\nclaim win 1\ntree S win 1\n1 b1\nend\n")
    assert main(["solve", "--check", str(path)]) == 2
    assert "line 5: b1 is not legal" in capsys.readouterr().err


def test_solve_doc_examples_run():
    """docs/solve.md's examples are doctests."""
    import doctest
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "docs" / "solve.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= 10 and result.failed == 0
