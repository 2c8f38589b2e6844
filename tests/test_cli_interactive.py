"""The ``katra`` command line on a pseudo-terminal (pexpect): play, replay, progress.

On a terminal the CLI colours its output and shows progress on stderr, so
the output is read with the escape sequences stripped.  Timeouts are generous
and the engine searches shallow: the tests must pass on a slow shared machine.
"""
import json
import os
import random
import re
import sys

import pexpect
import pytest

import katra

TIMEOUT = 120
PROMPT = r"(South|North)> "
GAME_OVER = r"(You won!|The engine won\.|A draw\.)[^\r\n]*\r?\n"
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>]")


def plain(text):
    return ANSI.sub("", text).replace("\r", "")


def spawn(*args, env_extra=None, **kwargs):
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="50", **(env_extra or {}))
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "katra", *args], encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(50, 160), env=env, **kwargs)
    return child


def legal_moves(transcript):
    """The legal moves listed last in a transcript."""
    found = re.findall(r"legal moves: ([^\n]*)", plain(transcript))
    assert found, plain(transcript)[-2000:]
    return found[-1].strip().rstrip(".").split()


def finish_game(child, rng, max_moves=400):
    """Answer every prompt with a random legal move until the game ends; the transcript."""
    transcript = ""
    for _ in range(max_moves):
        index = child.expect([PROMPT, GAME_OVER])
        transcript += child.before + child.after
        if index == 1:
            child.expect(pexpect.EOF)
            transcript += child.before
            child.close()
            return plain(transcript)
        child.sendline(rng.choice(legal_moves(transcript)))
    raise AssertionError("the game did not end")


def check_record(path, transcript):
    """The record file replays to a finished game whose result the transcript announced."""
    (state,) = katra.read_records(path.read_text(encoding="utf-8"))
    outcome = state.outcome()
    assert outcome is not None, path.read_text()
    assert f"result: {outcome.result()}" in path.read_text()
    scores = f"{outcome.scores[0]}-{outcome.scores[1]}"
    assert scores in end_line(transcript)
    return state


def end_line(transcript):
    """The line under the last board: ``Game over. North won 0-32: ...``."""
    lines = [line for line in transcript.splitlines() if line.startswith("Game over. ")]
    assert len(lines) == 1, transcript[-2000:]
    return lines[0]


def test_play_katro_4x4_full_game_with_every_command(tmp_path):
    record = tmp_path / "katro.txt"
    child = spawn("play", "katro-4x4", "--depth", "2", "--record", str(record))
    child.expect("type help for the commands")
    child.expect(PROMPT)
    assert "legal moves: a1 b1 c1 d1" in plain(child.before)

    child.sendline("help")
    child.expect("take back your last move")
    child.expect(PROMPT)
    child.sendline("zz")
    child.expect("Not a move: 'zz' is not a square name")
    child.expect(PROMPT)
    child.sendline("a4")
    child.expect(r"a4 is not legal here\. Legal moves: a1 b1 c1 d1\.")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Nothing to undo")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect(r"Hint: ([a-d]1) ")
    child.expect(PROMPT)
    child.sendline("c1")
    child.expect(r"North plays ([a-d][34]) ")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(r"Took back: South c1, North [a-d][34]\.")
    child.expect(PROMPT)
    assert "legal moves: a1 b1 c1 d1" in plain(child.before)
    child.sendline("board")  # redraws the board with the legal moves, then prompts

    transcript = finish_game(child, random.Random(4))
    assert child.exitstatus == 0
    state = check_record(record, transcript)
    assert state.game.id == "katro-4x4"
    assert "has no legal move" in end_line(transcript)


def test_play_djenon_aboure_full_game_as_north(tmp_path):
    record = tmp_path / "djenon.txt"
    child = spawn("play", "djenon-aboure", "--as", "N", "--depth", "2", "--record", str(record))
    child.expect(r"South plays ([a-f]1) ")  # the engine opens
    transcript = finish_game(child, random.Random(7))
    assert child.exitstatus == 0
    state = check_record(record, transcript)
    assert state.move_stack and state.game.id == "djenon-aboure"
    assert "no hole holds 2 or more seeds" in end_line(transcript)
    assert "North store" in transcript and "South store" in transcript


def test_play_quit_keeps_an_unfinished_record(tmp_path):
    record = tmp_path / "gore.txt"
    child = spawn("play", "gore", "--time", "0.1", "--record", str(record))
    child.expect(PROMPT)
    child.sendline("a1")
    child.expect(r"North plays (\S+) ")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("You stopped the game after 2 plies; it is unfinished.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = record.read_text()
    assert text.startswith("start: gore ") and "moves: a1 " in text and "result: *" in text


def test_replay_steps_through_a_record(tmp_path):
    game = katra.game("gore").initial_state()
    for move in ["a1", "d2", "b1", "c2"]:
        game.push(move)
    path = tmp_path / "gore.txt"
    path.write_text(game.record(), encoding="utf-8")
    child = spawn("replay", str(path))
    child.expect("Start of game 1")
    child.expect(r"replay 0/4> ")
    child.sendline("")
    child.expect("Ply 1/4: South plays a1")
    child.expect(r"replay 1/4> ")
    child.sendline("e")
    child.expect("Ply 4/4: North plays c2")
    child.expect("not finished")
    child.expect(r"replay 4/4> ")
    child.sendline("")
    child.expect("past the end")
    child.expect(r"replay 4/4> ")
    child.sendline("b")
    child.expect("Ply 3/4: South plays b1")
    child.expect(r"replay 3/4> ")
    child.sendline("2")
    child.expect("Ply 2/4: North plays d2")
    child.expect(r"replay 2/4> ")
    child.sendline("what")
    child.expect("Unknown command 'what'")
    child.expect(r"replay 2/4> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_show_colours_on_a_terminal():
    child = spawn("show", "katro-4x4")
    child.expect(pexpect.EOF)
    child.close()
    raw = child.before
    assert "\x1b[" in raw  # coloured
    assert plain(raw).splitlines()[0] == "Katro 4x4 (katro-4x4)"
    assert "South to move; legal moves: a1 b1 c1 d1" in plain(raw)


@pytest.mark.parametrize("args,label", [
    (["perft", "katro", "6", "--backend", "reference", "--json"], "perft katro depth 6"),
    (["playouts", "gore", "60", "--seed", "9", "--backend", "reference", "--json"],
     "playouts gore"),
])
def test_progress_on_a_terminal_gives_the_same_result(args, label):
    # The display appears at once (no delay to outrun), so the test holds on any machine.
    child = spawn(*args, env_extra={"KATRA_PROGRESS_DELAY": "0"})
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = plain(child.before)
    assert label in text  # the progress display was drawn (then erased)
    record = json.loads(text[text.index("{"):text.rindex("}") + 1])
    if args[0] == "perft":
        assert record["nodes"] == katra.perft("katro", 6)
    else:
        tally = katra.playouts("gore", 60, seed=9)
        assert {k: record[k] for k in tally} == tally
