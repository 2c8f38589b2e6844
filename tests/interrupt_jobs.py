"""Long calls stopped by SIGINT in a subprocess (tests/test_interrupt.py and
benchmarks/bench_interrupt.py).

Every call below is sized by counts to run for minutes or for ever, so a
call that ignores Ctrl-C is caught whatever the machine's speed.  The child
prints ``started`` just before the call; the parent waits for that line (and
a little more, so that the call is inside the core), sends SIGINT and reads
back when the child caught ``KeyboardInterrupt`` (``time.monotonic`` is the
same clock in both processes on Linux).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

#: Goré with South owning every hole: no capture is possible (a landing hole
#: is never the opponent's), North owns no seeds and must pass, and with a
#: store of 0 it cannot be offered a hole.  The 80 seeds never leave the
#: board, so some hole always holds 3 or more: the game never ends
#: (docs/rules.md §4.5).
NEVER_ENDING_GORE = "gore 10,10,10,10/10,10,10,10 S stores=0,0 owners=SSSS/SSSS"

#: name -> a Python expression that runs for minutes or more (``katra`` and
#: ``_core`` imported).
CALLS = {
    "core perft": "_core.perft(_core.Position.initial('katro'), 15)",
    "core divide": "_core.divide(_core.Position.initial('katro'), 15)",
    "core playouts": "_core.playouts(_core.Position.initial('katro'), 10**12, 0, 1000)",
    "core search": "_core.search(_core.Position.initial('katro'), 40)",
    # a Python loop in another thread competes for the GIL
    "core perft, busy thread": "(__import__('threading').Thread(target=exec, args=("
                               "'while True: pass',), daemon=True).start(), "
                               "_core.perft(_core.Position.initial('katro'), 15))",
    "katra.perft": "katra.perft('katro', 15)",
    "katra.divide": "katra.divide('katro', 15)",
    "State.perft": "katra.game('katro').initial_state().perft(15)",
    "State.divide": "katra.game('katro').initial_state().divide(15)",
    "katra.playouts": "katra.playouts('katra-mpantsaka', 10**12)",
    "playouts never ending": f"katra.playouts({NEVER_ENDING_GORE!r}, 10**6, max_plies=10**9)",
    "search depth 40": "katra.search('katro', depth=40)",
    "search time 1e5 s": "katra.search('katro', time=10**5)",
}

#: name -> command-line arguments of ``katra`` (stderr piped: one core call).
CLI_CALLS = {
    "cli perft": ["perft", "katro", "13"],
    "cli perft --divide": ["perft", "katro", "13", "--divide"],
    "cli playouts": ["playouts", "katra-mpantsaka", "1000000000"],
    "cli playouts never ending": ["playouts", NEVER_ENDING_GORE, "1000000",
                                  "--max-plies", "1000000000"],
}

_CHILD = """\
import sys, time
import katra
from katra import _core
print("started", flush=True)
try:
    {call}
except KeyboardInterrupt as exc:
    print("stopped", type(exc).__name__, repr(time.monotonic()), flush=True)
    sys.exit(0)
print("returned", flush=True)
sys.exit(1)
"""

_CLI_CHILD = """\
import sys
from katra.cli import main
print("started", flush=True)
sys.exit(main(sys.argv[1:]))
"""

#: Seconds between the child's ``started`` and SIGINT: long enough for the
#: child to be inside the call (a signal that came earlier would still stop
#: it, only not from inside the core).
SETTLE = 0.5


@dataclass
class Stopped:
    returncode: int
    stdout: str            # after the "started" line
    stderr: str
    latency: float         # seconds from SIGINT to the child catching it (or exiting)
    exit_latency: float    # seconds from SIGINT to the child's exit


def interrupt(argv: list[str], timeout: float = 120) -> Stopped:
    """Run argv (which prints ``started`` first), SIGINT it, wait for its exit."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        first = proc.stdout.readline()
        if first.strip() != "started":
            out, err = proc.communicate(timeout=timeout)
            raise AssertionError(f"the child did not start: {first}{out}{err}")
        time.sleep(SETTLE)
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the call ended before SIGINT: {out}{err}")
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=timeout)
        exited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    latency = exited
    words = out.split()
    if len(words) == 3 and words[0] == "stopped":
        latency = float(words[2]) - sent
    return Stopped(proc.returncode, out, err, latency, exited)


def interrupt_call(name: str) -> Stopped:
    return interrupt([sys.executable, "-c", _CHILD.format(call=CALLS[name])])


def interrupt_cli(name: str) -> Stopped:
    return interrupt([sys.executable, "-c", _CLI_CHILD, *CLI_CALLS[name]])
