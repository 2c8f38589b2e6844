"""``katra engine SPEC`` as a program of its own, driven over the play protocol
(docs/protocol.md) by a small driver: the handshake, every command, each kind
of go limit, stop during go infinite, errors as ``error`` lines, and the end
(quit or end of input, status 0, no process left).  Also the example engine
of examples/protocol_engine.py, and ``katra diff --walk`` agreeing with both.
The docs' sample session is checked here too."""
from __future__ import annotations

import json
import queue
import re
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import katra
from helpers import katra_in_process
from katra.match import Handshake, Info, make_player, parse_bestmove

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "protocol_engine.py"
PROTOCOL_DOC = ROOT / "docs" / "protocol.md"
WAIT = 60  # seconds: generous bounds on answers, never a measure of speed


class Driver:
    """An engine program on pipes: ``send`` a line, ``read`` the next one (a reader
    thread queues stdout, so a silent engine fails the test after WAIT seconds)."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.transcript: list[str] = []

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.transcript.append(f"> {line}")
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self, wait: float = WAIT) -> str:
        line = self.lines.get(timeout=wait)
        assert line is not None, f"the engine closed its output; stderr: {self.stderr()}"
        self.transcript.append(f"< {line}")
        return line

    def ask(self, line: str) -> str:
        self.send(line)
        return self.read()

    def go(self, line: str) -> tuple[list[Info], str]:
        """Send a go; its info lines and its move."""
        self.send(line)
        infos = []
        while True:
            reply = self.read()
            if reply.startswith("info"):
                infos.append(Info.parse(reply))
            else:
                return infos, parse_bestmove(reply)

    def handshake(self) -> Handshake:
        self.send("protocol 1")
        lines = [self.read()]
        while not lines[-1].startswith(("protocolok", "error")):
            lines.append(self.read())
        return Handshake.parse(lines)

    def finish(self) -> int:
        """Close stdin; the exit status."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(WAIT)

    def stderr(self) -> str:
        return "" if self.process.poll() is None else (self.process.stderr.read()
                                                       if self.process.stderr else "")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(WAIT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:  # a pipe the engine had already left
                    pass


def katra_engine_command(spec: str) -> list[str]:
    return [sys.executable, "-m", "katra", "engine", spec]


@pytest.fixture
def engine():
    """Start drivers of programs; every one is killed at the end."""
    drivers: list[Driver] = []

    def start(command: list[str]) -> Driver:
        drivers.append(Driver(command))
        return drivers[-1]

    yield start
    for driver in drivers:
        driver.kill()


def test_handshake_position_go_and_quit(engine):
    driver = engine(katra_engine_command("alphabeta:tt_bits=16"))
    handshake = driver.handshake()
    assert handshake.name == "katra alphabeta:tt_bits=16" and handshake.version == 1
    assert handshake.games == (*katra.GAME_IDS, "katro-*", "katra-mpantsaka-*",
                               "katra-mpantsaka-simplified-*", "gore-*", "djenon-aboure-*")
    assert [o.name for o in handshake.options] == ["depth", "nodes", "time", "tt_bits"]
    assert handshake.options[3].default == "16"
    assert driver.ask("isready") == "readyok"
    assert driver.ask("newgame") == "ok"
    assert driver.ask("position katro-4x4 moves b1 d4") == "ok"
    state = katra.State("katro-4x4").child("b1").child("d4")
    assert driver.ask("text") == state.text()
    assert driver.ask("legal").split() == list(state.legal_moves)
    infos, move = driver.go("go depth 4")
    fresh = katra.search(state, depth=4)
    assert move == fresh.best_move and infos[-1].depth == 4
    assert infos[-1].score == ("value", fresh.score)
    infos, move = driver.go("go nodes 500")
    assert move in state.legal_moves and infos[-1].nodes <= 550
    infos, move = driver.go("go movetime 50")
    assert move in state.legal_moves and infos
    infos, move = driver.go("go stime 3000 ntime 3000 sinc 10 ninc 10")
    assert move in state.legal_moves
    assert driver.ask("play " + move) == "ok"
    assert driver.ask("text") == state.child(move).text()
    driver.send("quit")
    assert driver.process.wait(WAIT) == 0
    assert driver.lines.get(timeout=WAIT) is None  # nothing after quit


def test_go_infinite_answers_isready_and_stop(engine):
    driver = engine(katra_engine_command("alphabeta"))
    driver.handshake()
    assert driver.ask("position katro") == "ok"
    driver.send("go infinite")
    assert driver.read().startswith("info depth 1 ")
    # while it searches: isready and a refused command are answered (between infos)
    driver.send("isready")
    assert read_past_infos(driver) == "readyok"
    driver.send("position gore")
    assert read_past_infos(driver) == "error position: a search is running (send stop first)"
    driver.send("stop")
    assert parse_bestmove(read_past_infos(driver)) in katra.State("katro").legal_moves
    driver.send("stop")  # no search: ignored, no reply
    assert driver.ask("isready") == "readyok"
    assert driver.finish() == 0


def read_past_infos(driver: Driver) -> str:
    """The next line that is no info line."""
    while True:
        line = driver.read()
        if not line.startswith("info"):
            return line


@pytest.mark.parametrize("command, reply", [
    ("hello", "error unknown command 'hello'"),
    ("protocol 2", "error unsupported protocol version"),
    ("go", "error no position yet (send position first)"),
    ("text", "error no position yet (send position first)"),
    ("position chess", "error unknown game 'chess'"),
    ("position katro-9x9", "error rows=9 is out of range"),
    ("position katro-4x4 2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", "error "),
    ("position katro-4x4 moves z9", "error illegal move 'z9'"),
    ("position", "error position needs a position text"),
    ("setoption name speed value 3", "error alphabeta has no setting 'speed'; its settings: "
                                     "depth, nodes, time, tt_bits"),
    ("setoption name depth value 99", "error depth must be in 1..64 (0: none), not '99'"),
    ("setoption depth 3", "error expected 'setoption name NAME value VALUE'"),
    ("go depth -1", "error depth must be at least 1"),
    ("play", "error expected 'play MOVE'"),
])
def test_errors_are_error_lines(command, reply):
    """In process (the same server): each bad command gets one error line, and the
    engine goes on answering."""
    result = katra_in_process("engine", "alphabeta", stdin=f"{command}\nisready\n")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith(reply) and lines[1] == "readyok", lines


def test_go_in_a_finished_position_and_illegal_play():
    finished = "katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S"  # rules.md §2.4: South lost
    result = katra_in_process("engine", "random", stdin=f"position {finished}\ngo\nlegal\n"
                                                        "position katro-4x4\nplay a4\nquit\n")
    assert result.stdout.splitlines() == [
        "ok", "error go: the game is over in this position", "", "ok",
        result.stdout.splitlines()[4]]
    assert result.stdout.splitlines()[4].startswith("error illegal move 'a4'")


def test_setoption_changes_the_player():
    result = katra_in_process("engine", "alphabeta", stdin="setoption name depth value 3\n"
                                                           "position gore\ngo\n")
    lines = result.stdout.splitlines()
    assert lines[0] == "ok" and lines[1] == "ok"
    assert Info.parse(lines[-2]).depth == 3
    assert parse_bestmove(lines[-1]) == katra.search("gore", depth=3).best_move


def test_mcts_options_and_go_nodes():
    result = katra_in_process("engine", "mcts", stdin="setoption name simulations value 500\n"
                                                      "position katro-4x4\ngo\ngo nodes 300\n")
    lines = result.stdout.splitlines()
    assert lines[:2] == ["ok", "ok"] and result.returncode == 0
    moves = [parse_bestmove(line) for line in lines if line.startswith("bestmove")]
    infos = [Info.parse(line) for line in lines if line.startswith("info")]
    player = katra.MCTS()  # the same player: the second go continues its tree
    assert moves == [player.search("katro-4x4", simulations=500).best_move,
                     player.search("katro-4x4", simulations=300).best_move]
    assert [i.simulations for i in infos] == [200, 500, 200, 300]


def test_end_of_input_quits_and_a_search_is_stopped(engine):
    driver = engine(katra_engine_command("alphabeta"))
    assert driver.ask("position katro") == "ok"
    driver.send("go infinite")
    assert driver.read().startswith("info")
    assert driver.finish() == 0  # EOF during the search: it stops, the program ends


def test_garbage_bytes_are_an_unknown_command():
    result = subprocess.run(katra_engine_command("random"), input=b"\xff\xfe go\nisready\n",
                            capture_output=True, timeout=WAIT)
    lines = result.stdout.decode("utf-8").splitlines()
    assert lines[0].startswith("error unknown command") and lines[1] == "readyok"
    assert result.returncode == 0 and result.stderr == b""


def test_bad_spec_is_one_line_and_status_2():
    result = katra_in_process("engine", "alphabeta:depth=0.5")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("katra: depth must be a whole number in 1..64 (0: none), "
                             "not '0.5'\n")
    help_text = katra_in_process("engine", "--help").stdout
    assert "SPEC" in help_text and "docs/protocol.md" in help_text
    assert "  mcts: katra's Monte Carlo tree search (UCT)\n    simulations=1..2**40 (0: none): " \
           "simulations per move\n" in help_text


@pytest.mark.parametrize("spec", ["random", "greedy:seed=2", "alphabeta:depth=2"])
def test_in_process_server_plays_as_the_player(spec):
    """The moves served equal the player's own, ply after ply."""
    player = make_player(spec)
    state = katra.State("gore")
    commands = []
    expected = []
    for _ in range(6):
        commands += [f"position {state.text()}", "go"]
        action = player.choose(state, katra.match.GoLimits(), threading.Event()).action
        expected.append(state.action_text(action))
        state.push(action)
    result = katra_in_process("engine", spec, stdin="\n".join(commands) + "\n")
    moves = [parse_bestmove(line) for line in result.stdout.splitlines()
             if line.startswith("bestmove")]
    assert moves == expected


def test_a_position_that_extends_the_last_plays_only_its_new_moves():
    """A referee sends the whole game before each move: the engine's position after
    each command is the one the command names, whether it extends the last command,
    starts another game, or follows a play; an illegal new move is an error line and
    leaves the position as it was."""
    state = katra.State("katro-4x4")
    start = state.text()
    moves: list[str] = []
    commands, expected = [], []
    for move in ["b1", "d4", "a1", "c4"]:
        moves.append(move)
        state.push(move)
        commands += [f"position {start} moves {' '.join(moves)}", "text"]
        expected += ["ok", state.text()]
    bad = f"position {start} moves {' '.join(moves)} d1 z9"
    commands += [bad, "text"]                      # a1-d1 is legal, z9 is not
    expected += ["error illegal move 'z9'", state.text()]
    commands += ["play d1", "text", f"position {start} moves {' '.join(moves)}", "text"]
    expected += ["ok", state.child("d1").text(), "ok", state.text()]
    commands += [f"position {start} moves b1", "text"]  # not an extension: from the start
    expected += ["ok", katra.State("katro-4x4").child("b1").text()]
    result = katra_in_process("engine", "random", stdin="\n".join(commands) + "\n")
    replies = result.stdout.splitlines()
    assert [r if not r.startswith("error") else r[:len("error illegal move 'z9'")]
            for r in replies] == expected


# ---------------------------------------------------------------- the walk protocol

@pytest.mark.parametrize("program, game", [
    (shlex.join([sys.executable, "-m", "katra", "engine", "random"]), "katro"),
    (shlex.join([sys.executable, str(EXAMPLE)]), "gore"),
    (shlex.join([sys.executable, str(EXAMPLE)]), "djenon-aboure"),
])
def test_katra_diff_walk_agrees(program, game):
    result = katra_in_process("diff", "--walk", program, game, "--games", "2", "--max-plies",
                              "100", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["agree"] is True


# ---------------------------------------------------------------- the example engine

def test_example_engine_end_to_end(engine):
    driver = engine([sys.executable, str(EXAMPLE)])
    handshake = driver.handshake()
    assert handshake.games == katra.GAME_IDS + katra.match.family_wildcards()
    assert handshake.options[0].name == "seed"
    assert driver.ask("setoption name seed value 7") == "ok"
    assert driver.ask("newgame") == "ok"
    gore = "gore 5,2,3,1/0,3,3,1 S stores=14,16 owners=NNNN/SSSS"  # rules.md §4.3
    assert driver.ask(f"position {gore}") == "ok"
    infos, move = driver.go("go stime 1000 ntime 1000")
    assert move == "c1" and infos[0].score == ("value", 24 - 16)  # the capture of 10
    assert driver.ask("position katro moves c1") == "ok"
    driver.send("go infinite")
    infos = [Info.parse(driver.read())]
    assert driver.ask("isready") == "readyok"
    assert driver.ask("go") == "error go: a search is running (send stop first)"
    driver.send("stop")
    assert parse_bestmove(driver.read()) in katra.State("katro").child("c1").legal_moves
    assert driver.ask("setoption name depth value 3").startswith("error unknown option")
    assert driver.ask("frobnicate") == "error unknown command 'frobnicate'"
    assert driver.ask("protocol 2") == "error unsupported protocol version"
    assert driver.ask("position katro moves a4").startswith("error illegal move 'a4'")
    driver.send("quit")
    assert driver.process.wait(WAIT) == 0


# ---------------------------------------------------------------- the documented session

def documented_session() -> tuple[str, list[str]]:
    """docs/protocol.md's sample session: the command that runs it and its lines
    (``>`` sent, ``<`` received)."""
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- session: (.*?) -->\n```text\n(.*?)```", text, re.S)
    assert block is not None
    return block.group(1), block.group(2).splitlines()


def test_the_documented_session_is_real(engine):
    """Each line katra sends is sent to the engine named; what it answers must be
    the transcript's, word for word but the info lines' time and nps."""
    spec, lines = documented_session()
    driver = engine(katra_engine_command(spec))
    expected: list[str] = []
    for line in lines:
        if line.startswith("> "):
            for want in expected:
                assert unclocked(driver.read()) == unclocked(want)
            expected = []
            driver.send(line[2:])
        else:
            assert line.startswith("< "), line
            expected.append(line[2:])
    for want in expected:
        assert unclocked(driver.read()) == unclocked(want)
    assert driver.process.wait(WAIT) == 0


def unclocked(line: str) -> str:
    """An info line without its time and nps (they depend on the machine)."""
    return re.sub(r" (time|nps) \d+", "", line)


def test_the_documented_example_is_the_file_and_its_output_is_real():
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    source = EXAMPLE.read_text(encoding="utf-8")
    assert f"```python\n{source}```" in text
    assert f"A complete engine in {len(source.splitlines())} lines of Python" in text
    console = text.split("```console\n")[1].split("```")[0]
    command, _, output = console.split("$ ")[1].partition("\n")
    assert command.startswith("printf ")
    assert command.endswith(" | python examples/protocol_engine.py")
    commands = shlex.split(command)[2:-3]  # the printf's arguments
    result = subprocess.run([sys.executable, str(EXAMPLE)], input="\n".join(commands) + "\n",
                            capture_output=True, text=True, timeout=WAIT)
    assert unclocked(result.stdout) == unclocked(output) and result.returncode == 0


def test_the_cli_docs_engine_example_is_real():
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("### `katra engine`")[1]
    console = section.split("```console\n")[1].split("```")[0]
    command, _, output = console.split("$ ")[1].partition("\n")
    words = shlex.split(command)
    assert words[0] == "printf" and words[-3:] == ["katra", "engine", "alphabeta"]
    result = katra_in_process("engine", "alphabeta", stdin="\n".join(words[2:-4]) + "\n")
    assert unclocked(result.stdout) == unclocked(output) and result.returncode == 0


def test_the_documented_excerpts_come_from_the_session():
    """The page's other exchanges of katra's engine (``go depth 3``) are the session's."""
    _, session = documented_session()
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    excerpt = text.split("moves b1 d4`:\n\n```text\n")[1].split("```")[0].splitlines()
    start = session.index(excerpt[0])
    assert session[start:start + len(excerpt)] == excerpt
