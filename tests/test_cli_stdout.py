"""The command line survives any stdout (docs/cli.md, "Conventions"): a closed one or a
full disk costs one line on stderr and status 1, a reader that stops early (a broken
pipe) ends the command quietly with status 0; never a traceback.  Real programs, since
what is tested is the process's own file descriptor 1."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

SOLVABLE = "katro-4x4 0,0,0,0/0,2,0,0/0,0,0,0/1,1,0,0 S"

COMMANDS = {
    "show": ["show", "katro"],
    "perft": ["perft", "katro", "3", "-q"],
    "perft-json": ["perft", "katro-4x4", "2", "--divide", "--json"],
    "solve": ["solve", SOLVABLE, "--max-plies", "3", "--json"],
    "playouts": ["playouts", "gore", "2", "--jobs", "1", "--json"],
    "rules": ["rules", "katro"],
    "help": ["--help"],
}


def katra(args, **streams):
    return subprocess.run([sys.executable, "-m", "katra", *args], stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, timeout=120, **streams)


def close_stdout():       # in the child, before katra starts: no file descriptor 1 at all
    os.close(1)


@pytest.mark.parametrize("name", COMMANDS)
def test_a_closed_stdout_is_one_line_and_status_1(name):
    result = katra(COMMANDS[name], preexec_fn=close_stdout)
    assert (result.returncode, result.stderr) == (
        1, "katra: cannot write the output: stdout is closed\n")


@pytest.mark.parametrize("name", COMMANDS)
def test_a_full_disk_is_one_line_and_status_1(name):
    with open("/dev/full", "w") as full:
        result = katra(COMMANDS[name], stdout=full)
    assert (result.returncode, result.stderr) == (
        1, "katra: cannot write the output: No space left on device\n")


def long_record() -> str:
    """A game record whose replay is longer than a pipe holds (64 KiB on Linux)."""
    import katra
    state, k = katra.State("katra-mpantsaka"), 0
    while not state.is_terminal() and state.ply < 150:
        moves = state.legal_actions()
        state.push(moves[(k * 7919) % len(moves)])
        k += 1
    return state.record()


def test_a_reader_that_stops_in_the_middle_ends_the_command_quietly():
    """katra replay game.txt | head -1: the reader goes away while katra still writes,
    so a write fails with a broken pipe: status 0, nothing on stderr."""
    process = subprocess.Popen([sys.executable, "-m", "katra", "replay", "-"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.PIPE)
    assert process.stdin and process.stdout and process.stderr
    process.stdin.write(long_record().encode())
    process.stdin.close()
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 0 and stderr == b""
    assert first


def test_the_replay_is_longer_than_a_pipe_holds():
    """The premise of the test above: the whole replay does not fit in the pipe."""
    from helpers import katra_in_process
    result = katra_in_process("replay", "-", stdin=long_record())
    assert result.returncode == 0 and len(result.stdout.encode()) > 2**17


def test_the_same_commands_write_to_a_working_stdout():
    """The commands above do write their output when they can (so the failures above are
    the output's, not the commands')."""
    for name in ("show", "perft", "help"):
        result = katra(COMMANDS[name], stdout=subprocess.PIPE)
        assert result.returncode == 0 and result.stdout and result.stderr == ""
