"""Proofs deeper than the bounded solver's 500 plies (docs/solve.md, "Proof files"):
df-pn settles Goré endgames with proofs of 500 to 600 plies; `katra solve
--proof` and `katra.solve(proof=)` write them, the reference checks them (also
in a thread of the smallest stack Python allows, and with Python's recursion
limit barely above the caller's frames: neither walk recurses), and altered
deep files are rejected naming the wrong line."""
import dataclasses
import io
import json
import re

import pytest

import katra
from helpers import SMALL_STACK, run_python
from katra import _reference
from katra._games import GAMES
from katra._limits import MAX_PROOF_PLIES, MAX_SOLVE_PLIES
from katra._text import action_text, parse_action
from katra.api import ProofWriteError
from katra.api._dfpn import Dfpn
from katra.api._solve import solve_unbounded
from katra.cli.main import main
from katra.testing import ProofError, check_proof

#: Goré endgames on the line of the mid-game below (docs/solved.md, "df-pn at 60 s"):
#: South wins each, and df-pn's proof (default table, no budget) is deeper than
#: 500 plies (534 and 541 plies, 3.7 and 3.8 million nodes, at this writing).  The
#: first whose proof is that deep is the one tested (df-pn's choices follow its
#: table, so a change to the core may change the depths).
DEEP = ["gore 0,12,0,1/0,2,1,2 N stores=26,4 owners=NSNN/SSSS",
        "gore 0,12,0,0/4,1,1,0 S stores=26,4 owners=NSNN/SSSS"]

#: The mid-game of benchmarks/bench_dfpn.py that df-pn settles as "South wins
#: within 562 plies" in 15.9 million nodes with the default table (docs/solved.md).
MIDGAME = "gore 0,6,1,12/25,0,1,1 N stores=2,0 owners=NSNN/SSSS"
MIDGAME_NODES = 60_000_000

pytestmark = pytest.mark.xdist_group("deep-proofs")  # the fixture's solve, in one worker


@pytest.fixture(scope="module")
def deep(tmp_path_factory):
    """(position, result, the proof file's path) of the first DEEP position whose
    df-pn proof is deeper than MAX_SOLVE_PLIES, written by katra.solve(proof=)."""
    for position in DEEP:
        path = tmp_path_factory.mktemp("deep") / "deep.proof"
        with open(path, "w", encoding="utf-8") as out:
            result = katra.solve(position, proof=out)
        if result.plies > MAX_SOLVE_PLIES:
            return position, result, path
    pytest.fail(f"none of {DEEP} has a df-pn proof deeper than {MAX_SOLVE_PLIES} plies: "
                f"pick deeper ones")


def lines_of(path):
    return path.read_text(encoding="utf-8").splitlines()


def write(tmp_path, lines, name="altered.proof"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def nodes_of(lines):
    """For each move line (by index): the reference position it is played from and
    the move's action, following the preorder of the file (depth d below the
    last line of depth d - 1)."""
    root = _reference.Position.from_text(lines[1][len("position "):])
    spec = GAMES[root.game_id]
    path, found = [root], {}
    for i, line in enumerate(lines[3:], 3):
        fields = line.split(" ")
        if fields[0] == "tree":
            path = [root]
            continue
        if not fields[0].isdigit():
            continue
        depth = int(fields[0])
        del path[depth:]
        parent = path[depth - 1]
        action = parse_action(spec, fields[1])
        found[i] = (parent, action)
        child = parent.copy(stack=False)
        child.apply(action)
        path.append(child)
    return found


def test_a_proof_deeper_than_the_bounded_solver_reaches(deep):
    position, result, path = deep
    assert result.outcome is not None and not result.exact
    summary = check_proof(path)
    assert (summary.outcome, summary.plies) == (result.outcome, result.plies)
    assert summary.position == katra.api.load_position(position, "reference").text()
    lines = lines_of(path)
    assert lines[2] == f"claim {result.outcome} {result.plies}"
    assert summary.nodes == sum(1 for line in lines if line[:1].isdigit())
    assert any(" = " in line for line in lines)            # transpositions are references
    assert max(int(line.split(" ")[0]) for line in lines if line[:1].isdigit()) > 300


def test_cli_writes_and_checks_a_deep_proof(deep, tmp_path, capsys):
    position, result, path = deep
    proof = tmp_path / "cli.proof"
    assert main(["solve", position, "--proof", str(proof)]) == 0
    out = capsys.readouterr().out
    assert f"within {result.plies} plies" in out
    assert proof.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    assert main(["solve", "--check", str(proof)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"proof OK: South wins within {result.plies} plies\n")


def test_deep_proofs_written_and_checked_in_a_small_stack_and_a_low_recursion_limit(deep):
    """The solve runs in the main thread; the proof is written from its table by
    write_proof (the same file as katra.solve(proof=) wrote) and checked in a
    thread of SMALL_STACK bytes, then again in the main thread with Python's
    recursion limit 60 frames above the caller's: no walk recurses."""
    position, _, path = deep
    rc, out, err = run_python(f"""
        import io, sys, threading
        import katra
        from katra.api import load_position, write_proof
        from katra.api._dfpn import Dfpn
        from katra.api._solve import solve_unbounded
        from katra.testing import check_proof
        pos = load_position({position!r}, "core")
        search = Dfpn(None)
        result = solve_unbounded(pos, None, None, None, False, search=search)
        path = {str(path) + ".small"!r}
        done = []
        def work():
            with open(path, "w", encoding="utf-8") as out:
                write_proof(out, pos, result, search=search)
            done.append(check_proof(path))
        threading.stack_size({SMALL_STACK})
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        small = done[0]
        frames, frame = 0, sys._getframe()
        while frame is not None:
            frames, frame = frames + 1, frame.f_back
        sys.setrecursionlimit(frames + 60)
        out = io.StringIO()
        write_proof(out, pos, result, search=search)
        low = check_proof(path)
        same = out.getvalue() == open(path, encoding="utf-8").read()
        print(small.outcome, small.plies, small.nodes, low.plies, same)
    """)
    assert rc == 0, err[-2000:]
    summary = check_proof(path)
    assert out.split() == [summary.outcome, str(summary.plies), str(summary.nodes),
                           str(summary.plies), "True"]
    assert (path.parent / (path.name + ".small")).read_text() == path.read_text()


def deepest_lines(lines, found, count):
    """The indexes of the `count` deepest move lines (not references)."""
    moves = [i for i in found if " = " not in lines[i]]
    return sorted(moves, key=lambda i: -int(lines[i].split(" ")[0]))[:count]


def test_an_illegal_move_deep_down_is_named(deep, tmp_path):
    _, _, path = deep
    lines = lines_of(path)
    found = nodes_of(lines)
    for i in deepest_lines(lines, found, 3):
        parent = found[i][0]
        spec = GAMES[parent.game_id]
        illegal = next(a for a in range(spec.num_actions) if a not in parent.legal_actions())
        depth = lines[i].split(" ")[0]
        text = action_text(spec, illegal)
        altered = [*lines[:i], f"{depth} {text}", *lines[i + 1:]]
        with pytest.raises(ProofError, match=f"^line {i + 1}: {re.escape(text)} is not legal"):
            check_proof(write(tmp_path, altered))


def test_changed_moves_are_rejected(deep, tmp_path):
    """A move of the winner deep down replaced by another legal move (the lines
    below it no longer fit: rejected at that line or below), and a reply of the
    defender replaced by another of its legal moves (every one must be answered,
    in action order: rejected at that line)."""
    _, _, path = deep
    lines = lines_of(path)
    found = nodes_of(lines)
    winner = "SN".index(lines[3].split(" ")[1])            # "tree <winner> win N"
    spec = GAMES[found[4][0].game_id]

    def changed(i):
        parent, action = found[i]
        other = next(a for a in parent.legal_actions() if a != action)
        fields = lines[i].split(" ")
        return [*lines[:i], " ".join([fields[0], action_text(spec, other), *fields[2:]]),
                *lines[i + 1:]]

    choices = [i for i in found if len(found[i][0].legal_actions()) > 1]
    mine = [i for i in choices if found[i][0].to_move == winner]
    deepest = sorted(mine, key=lambda i: -int(lines[i].split(" ")[0]))[:3]
    assert int(lines[deepest[-1]].split(" ")[0]) > MAX_SOLVE_PLIES // 2
    for i in deepest:
        with pytest.raises(ProofError) as caught:
            check_proof(write(tmp_path, changed(i)))
        assert int(str(caught.value).split(":")[0].split()[1]) >= i + 1, caught.value
    replies = [i for i in choices if found[i][0].to_move != winner]
    assert replies
    for i in replies[:: max(1, len(replies) // 4)]:
        with pytest.raises(ProofError, match=f"^line {i + 1}: expected "):
            check_proof(write(tmp_path, changed(i)))


def test_a_cycle_deep_down_is_rejected(deep, tmp_path):
    """A reference to an ancestor's line (a subtree not complete yet: a cycle), to
    itself and to a later line, deep in the proof."""
    _, _, path = deep
    lines = lines_of(path)
    found = nodes_of(lines)
    i = deepest_lines(lines, found, 1)[0]
    depth = int(lines[i].split(" ")[0])
    ancestor = max(j for j in found if j < i and int(lines[j].split(" ")[0]) == depth - 10)
    for target in (ancestor + 1, i + 1, i + 2):
        altered = [*lines[:i], f"{lines[i]} = {target}", *lines[i + 1:]]
        with pytest.raises(ProofError, match=f"^line {i + 1}: line {target} is not an "
                                             f"earlier, complete subtree"):
            check_proof(write(tmp_path, altered))


def test_a_claim_too_small_for_a_deep_proof_is_rejected(deep, tmp_path):
    """The claim (and its tree line) lowered below the depth the proof reaches: the
    bound runs out at a named line, deep down (or a reference needs more plies)."""
    _, result, path = deep
    lines = lines_of(path)
    deepest = max(int(line.split(" ")[0]) for line in lines if line[:1].isdigit())
    for plies in (deepest - 1, deepest // 2):
        question = lines[3].rsplit(" ", 1)[0]
        altered = [*lines[:2], f"claim {result.outcome} {plies}", f"{question} {plies}",
                   *lines[4:]]
        with pytest.raises(ProofError) as caught:
            check_proof(write(tmp_path, altered))
        message = str(caught.value)
        assert re.match(r"line (\d+): (the ply bound is used up|line \d+'s subtree needs)",
                        message), message
        assert int(message.split(":")[0].split()[1]) > 4 + plies // 2


def test_cut_deep_proofs_are_rejected(deep, tmp_path):
    _, _, path = deep
    lines = lines_of(path)
    found = nodes_of(lines)
    i = deepest_lines(lines, found, 1)[0]
    for keep in (i, i + 1, len(lines) - 1):
        with pytest.raises(ProofError, match=f"^line {keep + 1}: the proof is cut short"):
            check_proof(write(tmp_path, lines[:keep]))


def test_claims_up_to_the_format_limit(tmp_path):
    """A claim may be any number of plies up to MAX_PROOF_PLIES (a win within fewer
    is a win within more); above it the claim line is refused."""
    head = ["katra-proof 1", "position djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=23,23"]
    for plies in (501, 1000, MAX_PROOF_PLIES):
        path = write(tmp_path, [*head, f"claim win {plies}", f"tree S win {plies}", "1 a1",
                                "end"])
        assert check_proof(path).plies == plies
    path = write(tmp_path, [*head, f"claim win {MAX_PROOF_PLIES + 1}",
                            f"tree S win {MAX_PROOF_PLIES + 1}", "1 a1", "end"])
    with pytest.raises(ProofError, match=r"^line 3: the claimed plies must be in 1\.\.2\*\*20"):
        check_proof(path)


def test_too_deep_a_result_has_no_proof_file():
    result = katra.api.SolveResult(outcome="win", plies=MAX_PROOF_PLIES + 1, best_action=0,
                                   best_move="a1", pv=(0,), nodes=1, seconds=0.0,
                                   max_plies=None, to_move=0, timed_out=False, exact=False)
    with pytest.raises(katra.ArgumentError, match="a proof file holds at most 2\\*\\*20"):
        katra.api.write_proof(io.StringIO(), "djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S "
                                             "stores=23,23", result)


@pytest.mark.slow
def test_the_deep_gore_midgame(tmp_path, capsys):
    """docs/solved.md's Goré mid-game (df-pn at 60 s): settled by a node budget
    (not the clock), its proof written by `katra solve --proof` and checked."""
    proof = tmp_path / "midgame.proof"
    assert main(["solve", MIDGAME, "--nodes", str(MIDGAME_NODES), "--proof", str(proof),
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["outcome"] == "loss" and record["plies"] > MAX_SOLVE_PLIES
    assert main(["solve", "--check", str(proof)]) == 0
    assert capsys.readouterr().out.startswith(
        f"proof OK: South wins within {record['plies']} plies\n")


def test_a_proof_the_table_cannot_give_back_fails_cleanly(deep):
    """Past the bounded solver's 500 plies nothing confirms a depth df-pn's table
    does not hold: asked for the deep proof within fewer plies than its depth (but
    more than 500), the writer raises ProofWriteError naming the question at once
    (it never hands the bounded solver a bound it refuses or cannot finish)."""
    position, result, _ = deep
    search = Dfpn(None)
    solved = solve_unbounded(katra.api.load_position(position, "core"), None, None, None,
                             False, search=search)
    assert solved.plies == result.plies
    short = dataclasses.replace(solved, plies=MAX_SOLVE_PLIES + 1)
    out = io.StringIO()
    with pytest.raises(ProofWriteError, match=f"does not confirm S win within "
                                              f"{MAX_SOLVE_PLIES + 1} plies"):
        katra.api.write_proof(out, position, short, search=search)
    assert issubclass(ProofWriteError, RuntimeError)


def test_cli_reports_a_proof_it_cannot_write_in_one_line(tmp_path, capsys, monkeypatch):
    """A proof the solver's table cannot give back (here: no child ever confirmed):
    `katra solve --proof` says so in one line, exit status 1, no file left."""
    monkeypatch.setattr(katra.api._proof._Proofs, "choose", lambda *args: -1)
    proof = tmp_path / "k.proof"
    assert main(["solve", "katro-4x4", "--proof", str(proof)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("katra solve: cannot write the proof: no move confirms S win "
                          "within ") and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


def test_dfpn_paths_end_where_the_limits_say():
    """df-pn's longest path is declared once, in katra._limits, and the core's
    compiled constant is that value (the core refuses to load otherwise)."""
    from katra import _core
    from katra._limits import DFPN_MAX_PATH

    assert _core.DFPN_MAX_PATH_OF_CORE == DFPN_MAX_PATH == 1000
    assert DFPN_MAX_PATH < MAX_PROOF_PLIES   # proofs may be deeper than one path


#: A deep entry of katro-4x6's solved suite (katro-4x6-deep-4, South wins within 44
#: plies in 433,679 nodes with a table of 2**24) solved in a table of 2**16 entries:
#: most proofs are lost, and the writer must search again at many nodes.
LOSSY = "katro-4x6 2,0,1,7,2,1/0,0,0,0,0,0/0,3,2,4,3,0/5,4,3,8,1,2 N"


def test_a_proof_written_from_a_lossy_table_searches_little(tmp_path):
    """Where the table lost a proof at a node of the player who forces the result,
    the writer searches the children again with small budgets first: a child
    that does not force it (whose search spends any budget without settling)
    does not hold up one that does.  From a table of 2**16 entries the proof
    takes about 87,000 nodes of new searches (with 2**24 nodes a child in action
    order it took 1.4 billion, five minutes) and passes the reference checker."""
    search = Dfpn(16)
    solved = solve_unbounded(katra.api.load_position(LOSSY, "core"), None, None, 16,
                             False, search=search)
    assert solved.outcome == "loss"      # its depth follows df-pn's table: not pinned
    before = search.nodes
    path = tmp_path / "lossy.proof"
    with open(path, "w", encoding="utf-8") as out:
        katra.api.write_proof(out, LOSSY, solved, search=search)
    assert search.nodes - before < 2_000_000, search.nodes - before
    summary = check_proof(path)
    assert (summary.position, summary.outcome, summary.plies) == (LOSSY, "loss", solved.plies)
