"""``katra diff`` and ``katra.testing.compare`` against deliberately wrong implementations.

Each planted mistake (tests/planted/) is the reference with one rule changed,
run behind the example program of docs/diff.md.  Through the perft protocol,
the line protocol (the program a subprocess of katra diff, katra diff itself
run in this process) and in-process through the harness, katra must name the
exact first position where the mistake shows; the expected positions were
worked out by hand from the rulebook (see each case) and each is also checked
against the rule that was broken.  The correct
program (the reference behind the same example) must agree.
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import katra
import katra.testing
from helpers import katra_in_process
from katra.testing import PerftProgram, WalkProgram, drill_down, walk
from planted import djenon_pass, gore_offer, katro_capture, miscount, mpantsaka_relay

PLANTED = Path(__file__).parent / "planted"
EXAMPLE = shlex.join([sys.executable, "-m", "katra.testing.example"])


def command(module) -> str:
    return shlex.join([sys.executable, module.__file__])


def katra_cli(*args):
    """``katra ARGS`` in this process; the programs it checks run as programs (the
    README's session below runs katra as one too)."""
    return katra_in_process(*args)


def reference(text):
    return katra.State.from_text(text, backend="reference")


# ---------------------------------------------------------------- the planted cases
#
# Perft protocol (katra diff COMMAND GAME DEPTH), from the start position:
#
# * djenon_pass, depth 7: after a1 b2 c1 a2 e1 b2 South's row is 1,0,0,1,1,0
#   (no hole of 2+) while North's c2 and f2 hold 9 and 10: South must pass
#   (§5.2); the broken program lists nothing.
# * gore_offer, depth 6: after a1 c2 b1 b2 d1 South's store holds exactly 6,
#   so North may offer any one of its 4 holes (6 >= 6 * 1, §4.2); the broken
#   program asks for more than 6 and lists only the sowings a2 d2.
# * katro_capture, depth 5 (katro-4x4): North's a4 (after b1 c4 a1) captures
#   from South's inner row until that row is empty; its next capture must take
#   from South's outer row (§2.3), which the broken program never looks at, so
#   it keeps seeds in c1 and lists c1 where katra's c1 is empty.
# * mpantsaka_relay, depth 3: North's g3- (after a2+) takes 8 laps; lap 5 lands
#   in a hole that held a single seed, where the broken program stops, leaving
#   3 seeds in d2: it lists d2+ d2- where katra's d2 is empty.
PERFT_CASES = {
    "djenon_pass": (djenon_pass, "djenon-aboure", 7, dict(
        position="djenon-aboure 1,1,9,3,1,10/1,0,0,1,1,0 S stores=6,14",
        path=["a1", "b2", "c1", "a2", "e1", "b2"], katra=["pass"], command=[])),
    "gore_offer": (gore_offer, "gore", 6, dict(
        position="gore 11,0,0,12/4,3,11,1 N stores=6,0 owners=NNNN/SSSS",
        path=["a1", "c2", "b1", "b2", "d1"],
        katra=["a2", "d2", "offer:a2", "offer:b2", "offer:c2", "offer:d2"],
        command=["a2", "d2"])),
    "katro_capture": (katro_capture, "katro-4x4", 5, dict(
        position="katro-4x4 6,2,4,6/1,8,1,2/0,0,0,0/0,2,0,0 S",
        path=["b1", "c4", "a1", "a4"], katra=["b1"], command=["b1", "c1"])),
    "mpantsaka_relay": (mpantsaka_relay, "katra-mpantsaka", 3, dict(
        position="katra-mpantsaka 4,1,4,0,1,4,4,1/4,4,4,0,1,0,1,3/1,3,3,0,0,0,3,3/"
                 "3,0,3,3,0,3,3,0 S",
        path=["a2+", "g3-"],
        katra=["a2+", "a2-", "b2+", "b2-", "c2+", "c2-", "g2+", "g2-", "h2+", "h2-"],
        command=["a2+", "a2-", "b2+", "b2-", "c2+", "c2-", "d2+", "d2-", "g2+", "g2-",
                 "h2+", "h2-"])),
}

# Line protocol and harness (seed 0, game 0 in every case; 50 games, ply limit 200):
#
# * djenon_pass: after 10 plies South's row is 1,1,0,1,1,1 with 4s in North's
#   row: katra says pass, the program nothing (the game "over" too early).
# * gore_offer: after 18 plies North's store holds exactly 6: South may offer
#   any one hole; the program lists only its three sowings.
# * katro_capture: North's d4 captures a2 from South's inner row, relays and
#   captures until that row is empty, then (correctly) takes from South's
#   outer row, leaving South only b1; the program stops capturing once the
#   inner row is empty, so South's outer row 2,1,6,1 is untouched.
# * mpantsaka_relay: South's d2- (clockwise e2 f2 g2) lands in g2, which held
#   1 and faces an empty g3: katra relays the 2 seeds into h2 and h1; the
#   program ends the move at g2.
WALK_CASES = {
    "djenon_pass": (djenon_pass, "djenon-aboure", dict(
        kind="legal", position="djenon-aboure 1,4,4,1,2,1/1,1,0,1,1,1 S stores=18,12",
        path=["b1", "a2", "f1", "b2", "b1", "e2", "b1", "a2", "a1", "d2"],
        katra=["pass"], command=[])),
    "gore_offer": (gore_offer, "gore", dict(
        kind="legal", position="gore 9,22,0,0/3,5,3,0 S stores=0,6 owners=NNNN/SSSS",
        path="d1 a2 d1 c2 d1 c2 c1 a2 d1 d2 b1 c2 d1 d2 c1 d2 a1 c2".split(),
        katra=["a1", "b1", "c1", "offer:a1", "offer:b1", "offer:c1", "offer:d1"],
        command=["a1", "b1", "c1"])),
    "katro_capture": (katro_capture, "katro-4x4", dict(
        kind="text", position="katro-4x4 2,5,0,4/2,0,0,0/4,1,1,3/2,1,6,1 N", move="d4",
        path=["d1", "a4", "b1", "a4", "d1", "c4", "d1"],
        katra="katro-4x4 5,2,10,4/3,4,2,1/0,0,0,0/0,1,0,0 S",
        command="katro-4x4 6,1,2,3/1,5,3,1/0,0,0,0/2,1,6,1 S")),
    "mpantsaka_relay": (mpantsaka_relay, "katra-mpantsaka", dict(
        kind="text", move="d2-",
        position="katra-mpantsaka 3,0,3,3,1,4,4,4/0,1,2,1,4,2,0,2/4,1,0,3,3,0,1,2/"
                 "1,4,0,1,4,4,2,0 S",
        path=["h2-", "f3+", "g2-", "d3+", "f2-", "a3+"],
        katra="katra-mpantsaka 3,0,3,3,1,4,4,4/0,1,2,1,4,2,0,2/4,1,0,0,4,1,0,3/"
              "1,4,0,1,4,4,2,1 N",
        command="katra-mpantsaka 3,0,3,3,1,4,4,4/0,1,2,1,4,2,0,2/4,1,0,0,4,1,2,2/"
                "1,4,0,1,4,4,2,0 N")),
}
WALK_ARGS = ["--games", "50", "--seed", "0", "--max-plies", "200"]


def check_broken_rule(name, found):
    """The found position really is one where the planted rule matters."""
    state = katra.State.from_text(found["position"])
    if name == "djenon_pass":   # the mover has no hole of 2+, the board has one: pass
        own = state.board[:6] if state.to_move == 0 else state.board[6:]
        assert max(own) < 2 <= max(state.board)
        assert state.legal_actions() == [12]
    elif name == "gore_offer":  # the opponent's store holds exactly 6: one-hole offers
        assert state.stores[1 - state.to_move] == 6
        assert set(found["katra"]) - set(found["command"]) == {
            m for m in state.legal_moves if m.startswith("offer:") and "," not in m}
    elif name == "katro_capture" and "move" in found:
        after = state.child(found["move"])
        assert after.text() == found["katra"]
        assert after.board[4:8] == [0, 0, 0, 0]           # South's inner row emptied...
        theirs = katra.State.from_text(found["command"])
        assert theirs.board[0:4] == state.board[0:4]      # ...the program never took row 1
        assert after.board[0:4] != state.board[0:4]       # katra did
    elif name == "mpantsaka_relay" and "move" in found:
        # d2- sows e2 f2 g2; g2 held 1, g3 is empty: relay into h2, h1 (§3.3).
        g2, g3, h1, h2 = 14, 22, 7, 15
        assert state.board[11] == 3 and state.board[g2] == 1 and state.board[g3] == 0
        after = state.child(found["move"])
        assert (after.board[g2], after.board[h2], after.board[h1]) == (0, 3, 1)
        theirs = katra.State.from_text(found["command"])
        assert (theirs.board[g2], theirs.board[h2], theirs.board[h1]) == (2, 2, 0)


# ---------------------------------------------------------------- perft protocol

def replay_with_the_mistake(module, start, path, monkeypatch):
    """``(first ply whose position differs from katra's or None, legal moves at the end)``
    when the path is played on the reference with the planted mistake."""
    diverged = None
    with monkeypatch.context() as patched:
        for target, attribute, replacement in module.PATCHES:
            patched.setattr(target, attribute, replacement)
        theirs, ours = reference(start), katra.State.from_text(start)
        for ply, move in enumerate(path, 1):
            theirs.push(move)
            ours.push(move)
            if diverged is None and theirs.text() != ours.text():
                diverged = ply
        return diverged, list(theirs.legal_moves)


@pytest.mark.parametrize("name", [
    # (djenon_pass and gore_offer run through the perft protocol in the tests below too)
    pytest.param(name, marks=[pytest.mark.slow] if name in ("djenon_pass", "gore_offer") else [])
    for name in PERFT_CASES])
def test_perft_protocol_finds_the_planted_mistake(name, monkeypatch):
    module, game, depth, expected = PERFT_CASES[name]
    result = katra_cli("diff", command(module), game, str(depth), "--json")
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "differs from katra" in result.stderr
    record = json.loads(result.stdout)
    assert record["agree"] is False and record["kind"] == "legal"
    assert {k: record[k] for k in expected} == expected
    assert record["start"] == katra.game(game).initial_state().text()
    # The reproduce command is the program's own call at that position, at depth 1.
    repro = shlex.split(record["reproduce"])
    assert repro[:2] == [sys.executable, module.__file__]
    assert repro[2:] == ["1", record["start"], *expected["path"]]
    check_broken_rule(name, expected)
    # Along the path, the broken rules change a position only in the last move (katro,
    # mpantsaka: the program then holds another position) or not at all (djenon, gore:
    # only the list of moves is wrong); at the end they list what the program listed.
    diverged, legal = replay_with_the_mistake(module, record["start"], expected["path"],
                                              monkeypatch)
    assert diverged == (len(expected["path"]) if name in ("katro_capture", "mpantsaka_relay")
                        else None)
    assert sorted(legal) == sorted(expected["command"])


def test_perft_protocol_report_for_people():
    module, game, depth, expected = PERFT_CASES["djenon_pass"]
    result = katra_cli("diff", command(module), game, str(depth))
    assert result.returncode == 1
    out = result.stdout
    assert f"perft 7 from {katra.game(game).initial_state().text()}: katra 26596, command 26529" \
        in out
    assert f"position   {expected['position']}" in out
    assert "│ 1 │ 1 │ 9 │ 3 │ 1 │ 10 │ North" in out.replace("  ", " ")  # the board drawing
    assert "path       a1 b2 c1 a2 e1 b2   (6 moves from the start)" in out
    assert "katra      pass\ncommand    (none: the game is over)\nmissing    pass" in out
    repro = out.split("reproduce  ")[1].strip()
    shown = subprocess.run(shlex.split(repro), capture_output=True, text=True, timeout=60)
    assert shown.stdout == "\n0\n"  # the program's own answer there: no move at all


def test_perft_protocol_with_int_moves_finds_the_same_position():
    module, game, depth, expected = PERFT_CASES["gore_offer"]
    result = katra_cli("diff", command(module), game, str(depth), "--json", "--int-moves")
    record = json.loads(result.stdout)
    assert (record["position"], record["path"]) == (expected["position"], expected["path"])
    assert shlex.split(record["reproduce"])[-5:] == ["0", "6", "1", "5", "3"]  # a1 c2 b1 b2 d1


def test_perft_protocol_counts_that_contradict_themselves():
    """miscount: right moves, but its depth >= 2 counts add one to the first move's."""
    result = katra_cli("diff", command(miscount), "katro-4x4", "3", "--json")
    assert result.returncode == 1
    record = json.loads(result.stdout)
    assert record["kind"] == "counts"
    assert record["path"] == ["a1"]
    assert record["position"] == katra.State.from_text(
        katra.game("katro-4x4").initial_state().text()).child("a1").text()
    assert record["katra"] == record["command"]
    assert "counted 17 for a1 at depth 3" in record["note"]


@pytest.mark.parametrize("game, depth", [("katro", 3), ("katro-4x6", 3), ("katro-4x4", 4),
                                         ("katra-mpantsaka", 2),
                                         ("katra-mpantsaka-simplified", 2), ("gore", 5),
                                         ("djenon-aboure", 5)])
def test_the_correct_program_agrees_through_the_perft_protocol(game, depth):
    result = katra_cli("diff", EXAMPLE, game, str(depth), "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["agree"] is True and record["position"] is None and record["path"] == []
    assert record["nodes"] == {"katra": katra.perft(game, depth),
                               "command": katra.perft(game, depth)}


def test_the_correct_program_agrees_on_a_pending_offer():
    text = "gore 4,1,8,4/3,1,21,0 S stores=6,0 owners=NNNN/SSSS offer=c2"
    result = katra_cli("diff", EXAMPLE, text, "4")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"agree: perft 4 from {text} is 122 for both, and so is every " \
                            "move's count\n"


# ---------------------------------------------------------------- line protocol

@pytest.mark.parametrize("name", WALK_CASES)
def test_walk_protocol_finds_the_planted_mistake(name):
    module, game, expected = WALK_CASES[name]
    result = katra_cli("diff", "--walk", command(module), game, *WALK_ARGS, "--json")
    assert result.returncode == 1, result.stderr
    record = json.loads(result.stdout)
    assert record["agree"] is False and record["game"] == 0
    assert {k: record[k] for k in expected} == expected
    assert record["games_compared"] == 0
    check_broken_rule(name, expected)
    # The reproduce line replays the session: the program's last reply is its answer.
    replay = subprocess.run(record["reproduce"], shell=True, capture_output=True, text=True,
                            timeout=60)
    last = replay.stdout.splitlines()[-1]
    assert last == (" ".join(expected["command"]) if expected["kind"] == "legal"
                    else expected["command"])


@pytest.mark.parametrize("name", WALK_CASES)
def test_harness_finds_the_planted_mistake(name, monkeypatch):
    module, game, expected = WALK_CASES[name]
    for target, attribute, replacement in module.PATCHES:
        monkeypatch.setattr(target, attribute, replacement)
    with pytest.raises(AssertionError) as caught:
        katra.testing.compare(reference, game, games=50, seed=0, max_plies=200)
    message = str(caught.value)

    def row(label, value):
        return f"{label.ljust(9)}  {value}"

    assert row("position", expected["position"]) in message
    assert row("path", f"{' '.join(expected['path'])}   ({len(expected['path'])} moves") \
        in message
    if expected["kind"] == "legal":
        assert "disagree about the legal moves (game 0, " in message
        assert row("katra", " ".join(expected["katra"]) + "\n") in message
    else:
        assert f"disagree about the position after {expected['move']} (game 0, " in message
        assert row("katra", expected["katra"]) + "\n" + row("yours", expected["command"]) \
            in message


def test_walk_of_the_correct_program_plays_the_playout_games():
    """Every ply agrees, and the games are those of katra playouts with the same seed."""
    for game, games, max_plies in (("gore", 3, 150), ("katro", 2, 1000),
                                   ("djenon-aboure", 8, 1000)):
        result = katra_cli("diff", "--walk", EXAMPLE, game, "--games", str(games), "--seed",
                           "5", "--max-plies", str(max_plies), "--json")
        assert result.returncode == 0, result.stderr
        record = json.loads(result.stdout)
        tally = katra.playouts(game, games, seed=5, max_plies=max_plies)
        assert record["agree"] is True and record["position"] is None
        assert record["plies"] == tally["plies"]
        assert record["unfinished"] == tally["unfinished"]
        assert record["finished"] == games - tally["unfinished"]


def test_walk_with_int_moves_and_text_report():
    result = katra_cli("diff", "--walk", EXAMPLE, "katro-4x4", "--games", "3", "--seed", "9",
                       "--int-moves")
    assert result.returncode == 0, result.stderr
    plies = katra.playouts("katro-4x4", 3, seed=9)["plies"]
    start = katra.game("katro-4x4").initial_state().text()
    assert result.stdout.startswith(f"agree: 3 games from {start} "
                                    f"(seed 9, ply limit 1000), {plies} plies")


def test_in_process_walk_through_the_program_adapter():
    """The same walk, driven from Python over the line protocol (no katra subprocess)."""
    start = katra.game("djenon-aboure").initial_state().text()
    with WalkProgram(command(djenon_pass), katra.game("djenon").spec, timeout=60) as program:
        result = walk(program, start, 50, 0, 200)
    assert result.difference is not None
    assert result.difference.position == WALK_CASES["djenon_pass"][2]["position"]


# ---------------------------------------------------------------- harness

def test_harness_agrees_with_a_correct_implementation(backend):
    result = katra.testing.compare(lambda text: katra.State.from_text(text, backend=backend),
                                   "katro-4x4", games=20, seed=3)
    assert result.agree and result.finished == 20
    assert result.plies == katra.playouts("katro-4x4", 20, seed=3)["plies"]


def test_harness_takes_apply_and_move_text():
    class TextMoves:  # lists move texts and plays them with apply()
        def __init__(self, text):
            self.state = katra.State.from_text(text)

        def legal_actions(self):
            return list(self.state.legal_moves)

        def apply(self, move):
            assert isinstance(move, str)
            self.state.push(move)

        def text(self):
            return self.state.text()

    result = katra.testing.compare(TextMoves, "gore", games=3, seed=1, max_plies=60)
    assert result.plies == katra.playouts("gore", 3, seed=1, max_plies=60)["plies"]


def test_harness_reports_a_start_position_read_wrongly():
    class WrongStores:
        def __init__(self, text):
            self.state = katra.State.from_text(text)

        def legal_actions(self):
            return self.state.legal_actions()

        def push(self, action):
            self.state.push(action)

        def text(self):
            return self.state.text().replace("stores=3,5", "stores=5,3")

    start = "djenon-aboure 0,2,0,0,0,0/0,0,0,0,3,0 S stores=3,5"
    with pytest.raises(AssertionError, match="yours reads the start position differently"):
        katra.testing.compare(WrongStores, start, games=1)


def test_harness_bad_arguments():
    with pytest.raises(ValueError, match="games"):
        katra.testing.compare(reference, "gore", games=-1)
    with pytest.raises(ValueError, match="seed"):
        katra.testing.compare(reference, "gore", seed=2**64)
    with pytest.raises(TypeError, match="apply"):
        katra.testing.compare(lambda text: type("NoMoves", (), {
            "legal_actions": lambda self: [0, 1, 2, 3], "text": lambda self: text})(),
            "katro-4x4", games=1)


# ---------------------------------------------------------------- programs that fail

SLEEPER = shlex.join([sys.executable, "-c", "import time; time.sleep(600)"])
GARBAGE = shlex.join([sys.executable, "-c", "print('hello'); print('world')"])
CRASHER = shlex.join([sys.executable, "-c", "import sys; print('partial'); "
                      "sys.exit('it broke')"])


@pytest.mark.parametrize("program, fragment", [
    ("/no/such/program --flag", "cannot be started"),
    (CRASHER, "exited with status 1"),
    (SLEEPER, "gave no answer within 0.5 s"),
    (GARBAGE, "printed no blank line"),
    (shlex.join([sys.executable, "-c", "print('a1 4'); print(); print(5)"]),
     "total of 5, but its counts add up to 4"),
    (shlex.join([sys.executable, "-c", "print('z9 4'); print(); print(4)"]),
     "unreadable move 'z9'"),
])
def test_perft_protocol_failures_are_one_line(program, fragment):
    result = katra_cli("diff", program, "katro-4x4", "2", "--timeout", "0.5")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert fragment in lines[0]
    assert repr(program) in lines[0]
    assert "katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S" in lines[0]
    if program in (CRASHER, GARBAGE):
        assert "it printed: 'partial' | 'it broke'" in lines[0] or "'hello' | 'world'" in \
            lines[0]


@pytest.mark.parametrize("program, fragment", [
    ("/no/such/program", "cannot be started"),
    (SLEEPER, "gave no reply to 'position' within 0.5 s"),
    (shlex.join([sys.executable, "-c", "import sys; sys.exit('it broke')"]),
     "exited (status 1) instead of replying to 'position' at position"),
    (GARBAGE, "replied 'hello' to 'position' instead of 'ok'"),
    (shlex.join([sys.executable, "-c", "import sys\nfor line in sys.stdin: print('error no', "
                 "flush=True)"]), "replied with an error to 'position"),
])
def test_walk_protocol_failures_are_one_line(program, fragment):
    result = katra_cli("diff", "--walk", program, "gore", "--timeout", "0.5")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert fragment in lines[0] and repr(program) in lines[0]
    assert "gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS" in lines[0]


def test_walk_protocol_bad_legal_reply_names_the_position():
    # Answers ok/text correctly, but lists a move that is no move of the game.
    script = ("import sys, katra\nt=''\nfor line in sys.stdin:\n"
              "    c, _, a = line.strip().partition(' ')\n"
              "    if c == 'position': t = a; print('ok', flush=True)\n"
              "    elif c == 'text': print(t, flush=True)\n"
              "    elif c == 'legal': print('a1 q7', flush=True)\n")
    program = shlex.join([sys.executable, "-c", script])
    result = katra_cli("diff", "--walk", program, "katro-4x4")
    assert result.returncode == 2
    assert "printed an unreadable move 'q7'" in result.stderr
    assert "at position 'katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S'" in result.stderr


@pytest.mark.parametrize("args, fragment", [
    (["diff", EXAMPLE, "gore"], "DEPTH is required"),
    (["diff", "--walk", EXAMPLE, "gore", "3"], "takes no DEPTH"),
    (["diff", EXAMPLE, "gore", "3", "--games", "4"], "--games goes with --walk only"),
    (["diff", EXAMPLE, "gore", "0"], "DEPTH"),
    (["diff", EXAMPLE, "chess", "3"], "unknown game"),
    (["diff", "", "gore", "3"], "the command is empty"),
    (["diff", "'unclosed", "gore", "3"], "cannot read the command"),
    (["diff", EXAMPLE, "gore", "3", "--timeout", "0"], "seconds"),
])
def test_diff_usage_errors(args, fragment):
    result = katra_cli(*args)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and fragment in result.stderr


def test_drill_down_in_process_with_the_program_adapter():
    module, game, depth, expected = PERFT_CASES["katro_capture"]
    start = katra.game(game).initial_state().text()
    program = PerftProgram(command(module), katra.game(game).spec, start, timeout=60)
    result = drill_down(start, depth, program.divide)
    assert (result.katra_nodes, result.other_nodes) == (555, 566)
    assert result.calls == len(expected["path"]) + 1
    assert result.difference.position == expected["position"]


# ---------------------------------------------------------------- the documents stay true

ROOT = Path(__file__).resolve().parent.parent


def test_docs_example_program_is_the_shipped_one():
    text = (ROOT / "docs" / "diff.md").read_text(encoding="utf-8")
    code = text.split("## A complete example program")[1].split("```python\n")[1]
    code = code[:code.index("```")]
    assert code == (ROOT / "src" / "katra" / "testing" / "example.py").read_text(
        encoding="utf-8")


def test_readme_diff_session_is_real_output(tmp_path):
    """The README's session, run from the repository with ``python`` being this Python."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Checking another implementation")[1].split("```console\n")[1]
    block = block[:block.index("```")]
    command_line, _, expected = block.partition("\n")
    args = shlex.split(command_line[2:])
    assert args[:2] == ["katra", "diff"]
    wrapper = tmp_path / "python"  # a script, not a link: a linked venv python loses its venv
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run([sys.executable, "-m", "katra", *args[1:]], capture_output=True,
                            text=True, timeout=120, cwd=ROOT, env=env)
    assert result.returncode == 1
    assert result.stdout + result.stderr == expected
