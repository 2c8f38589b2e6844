"""Long calls stopped by SIGINT in a subprocess (tests/test_interrupt.py and
benchmarks/bench_interrupt.py).

Every call below is sized by counts to run for hours or for ever (the tables
build: a minute of CPU or more), so a call that ignores Ctrl-C is caught
whatever the machine's speed.  Each child runs in a new empty working
directory, so a test sees any file a stopped call leaves.  The child prints
``started`` just before the call, then ``running`` once the process has spent
RUNNING_CPU seconds of CPU time on it (a count of work, not a wait: the
Python set-up before a call costs milliseconds, so by then the call runs
inside the core).  The parent waits for both lines, sends SIGINT and reads back
when the child caught ``KeyboardInterrupt`` (``time.monotonic`` is the same
clock in both processes on Linux).

Children start with SIGINT's default action restored (restore_sigint): a
process started from a shell that ignores SIGINT (a background job, nohup)
would otherwise pass the ignoring on, and Python installs no
KeyboardInterrupt handler in an interpreter that starts with SIGINT ignored.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

#: Goré with South owning every hole: no capture is possible (a landing hole
#: is never the opponent's), North owns no seeds and must pass, and with a
#: store of 0 it cannot be offered a hole.  The 80 seeds never leave the
#: board, so some hole always holds 3 or more: the game never ends
#: (docs/rules.md §4.5).
NEVER_ENDING_GORE = "gore 10,10,10,10/10,10,10,10 S stores=0,0 owners=SSSS/SSSS"

#: Djenon-aboure's endgame tables of up to 16 board seeds written to ``tables.bin``: a
#: minute or more (docs/tables.md), most of it in the core's layers 13-16 and zlib.
TABLES_BUILD = "katra.api.build_tables('djenon-aboure', 16, 'tables.bin')"

#: name -> a Python expression that runs for minutes or more (``katra`` and
#: ``_core`` imported).
CALLS = {
    "core perft": "_core.perft(_core.Position.initial('katro'), 20)",
    "core divide": "_core.divide(_core.Position.initial('katro'), 20)",
    "core playouts": "_core.playouts(_core.Position.initial('katro'), 10**12, 0, 1000)",
    "core search": "_core.search(_core.Position.initial('katro'), 40)",
    # a Python loop in another thread competes for the GIL
    "core perft, busy thread": "(__import__('threading').Thread(target=exec, args=("
                               "'while True: pass',), daemon=True).start(), "
                               "_core.perft(_core.Position.initial('katro'), 20))",
    "katra.perft": "katra.perft('katro', 20)",
    "katra.divide": "katra.divide('katro', 20)",
    "State.perft": "katra.game('katro').initial_state().perft(20)",
    "State.divide": "katra.game('katro').initial_state().divide(20)",
    "katra.playouts": "katra.playouts('katra-mpantsaka', 10**12)",
    "playouts never ending": f"katra.playouts({NEVER_ENDING_GORE!r}, 10**6, max_plies=10**9)",
    "search depth 40": "katra.search('katro', depth=40)",
    "search time 1e5 s": "katra.search('katro', time=10**5)",
    # one simulation whose playout never ends
    "mcts never ending playout": f"katra.MCTS(max_plies=10**9).search({NEVER_ENDING_GORE!r}, "
                                 "simulations=1)",
    # df-pn from the Katro start: 3.6 billion nodes settled nothing (docs/solved.md)
    "solve without a bound": "katra.solve('katro')",
    # the largest tables, into the child's working directory (a fresh one: nothing may be left)
    "tables build": TABLES_BUILD,
    # every position reachable from the Katro start: billions, listed in Python
    "retrograde": "katra.retrograde('katro', positions=2**31)",
}

#: name -> command-line arguments of ``katra`` (stderr piped: one core call).
CLI_CALLS = {
    "cli perft": ["perft", "katro", "20"],
    "cli perft --divide": ["perft", "katro", "20", "--divide"],
    "cli playouts": ["playouts", "katra-mpantsaka", "1000000000"],
    "cli playouts never ending": ["playouts", NEVER_ENDING_GORE, "1000000",
                                  "--max-plies", "1000000000"],
    "cli solve without a bound": ["solve", "katro"],
    "cli solve --retrograde": ["solve", "katro", "--retrograde", "--positions", str(2 ** 31)],
    "cli tables build": ["tables", "build", "djenon-aboure", "--max-seeds", "16",
                         "--out", "tables.bin"],
}

#: CPU seconds the child spends on the call before it reports ``running``
#: (the katro perft at depth 20 takes hours: it is nowhere near its end).
RUNNING_CPU = 0.3

#: Child code: prints ``started``, then ``running`` from a thread once the
#: process has spent RUNNING_CPU seconds of CPU time after ``started``.
REPORT_RUNNING = f"""\
import threading, time
def _report_running(start=time.process_time()):
    while time.process_time() - start < {RUNNING_CPU}:
        time.sleep(0.005)
    print("running", flush=True)
print("started", flush=True)
threading.Thread(target=_report_running, daemon=True).start()
"""

_CHILD = """\
import sys, time
import katra
from katra import _core
{report_running}
try:
    {call}
except KeyboardInterrupt as exc:
    print("stopped", type(exc).__name__, repr(time.monotonic()), flush=True)
    sys.exit(0)
print("returned", flush=True)
sys.exit(1)
"""

_CLI_CHILD = f"""\
import sys
from katra.cli import main
{REPORT_RUNNING}
sys.exit(main(sys.argv[1:]))
"""


#: name -> a split job (two worker threads, or one per core) that runs for hours:
#: stopped by ``_thread.interrupt_main()`` (interrupt_main_call).
SPLIT_CALLS = {
    "perft jobs=2": "katra.perft('katro', 20, jobs=2)",
    "perft jobs=0": "katra.perft('katro', 20, jobs=0)",
    "divide jobs=2": "katra.divide('katro', 20, jobs=2)",
    "playouts jobs=2": "katra.playouts('katra-mpantsaka', 10**12, jobs=2)",
}

#: Child code: ``interrupted(call)`` calls ``call()`` while a timer thread interrupts
#: it with ``_thread.interrupt_main()`` (how IDLE and front ends that run Python code in
#: a thread of their own deliver Ctrl-C: no signal, so no blocking call is woken) once
#: the process has spent RUNNING_CPU seconds of CPU time on it.  After
#: KeyboardInterrupt it waits for that thread and returns the seconds from the interrupt
#: to the exception; a call that returns, or raises a subclass, ends the child (status 1).
_INTERRUPTED = f"""\
import _thread, sys, threading, time
def interrupted(call):
    sent = []
    def _interrupt(start=time.process_time()):
        while time.process_time() - start < {RUNNING_CPU}:
            time.sleep(0.005)
        sent.append(time.monotonic())
        _thread.interrupt_main()
    timer = threading.Thread(target=_interrupt)
    timer.start()
    try:
        call()
    except KeyboardInterrupt as exc:
        caught = time.monotonic()
        timer.join()
        if type(exc) is KeyboardInterrupt:
            return caught - sent[0]
        print("raised", type(exc).__name__, flush=True)
        sys.exit(1)
    print("returned", flush=True)
    sys.exit(1)
"""

#: Child code: the call interrupted once, then the threads still alive (the workers
#: must be gone: nothing runs any more), and a split perft run after the stop against
#: the same count on one thread.
_INTERRUPT_MAIN_CHILD = """\
import katra
latency = interrupted(lambda: {call})
print("stopped", repr(latency), threading.active_count(),
      katra.perft("katro", 9, jobs=2), katra.perft("katro", 9, jobs=1), flush=True)
"""


def _run_interrupted(name: str, child: str, timeout: float) -> list[str]:
    """Run ``_INTERRUPTED + child`` in a fresh interpreter whose working directory is a
    new empty one; the words it printed after ``stopped``."""
    with tempfile.TemporaryDirectory() as cwd:
        try:
            result = subprocess.run([sys.executable, "-c", _INTERRUPTED + child],
                                    capture_output=True, text=True, timeout=timeout,
                                    cwd=cwd, preexec_fn=restore_sigint)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{name}: still running {timeout} s after the start") from None
    words = result.stdout.split()
    if result.returncode != 0 or words[:1] != ["stopped"]:
        raise AssertionError(f"{name}: {result.returncode}: {result.stdout}{result.stderr}")
    return words[1:]


@dataclass
class InterruptedMain:
    latency: float         # seconds from interrupt_main() to KeyboardInterrupt in the child
    threads: int           # threads alive in the child afterwards (1: the main thread)
    perft_after: int       # a split perft run after the stop ...
    perft_expected: int    # ... and the same count on one thread


def interrupt_main_call(name: str, timeout: float = 60) -> InterruptedMain:
    """Run SPLIT_CALLS[name] in a child that interrupts itself with interrupt_main()."""
    words = _run_interrupted(name, _INTERRUPT_MAIN_CHILD.format(call=SPLIT_CALLS[name]),
                             timeout)
    return InterruptedMain(float(words[0]), int(words[1]), int(words[2]), int(words[3]))


@dataclass
class Stopped:
    returncode: int
    stdout: str            # after the "started" and "running" lines
    stderr: str
    latency: float         # seconds from SIGINT to the child catching it (or exiting)
    exit_latency: float    # seconds from SIGINT to the child's exit
    left: list[str]        # the files left in its working directory (a new empty one)


def restore_sigint() -> None:
    """A ``preexec_fn``: the child starts with SIGINT's default action, whatever the
    parent's (so a Python child installs its KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds spent so far by process ``pid`` and its live descendants (Linux /proc);
    a process that is gone counts 0."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
        children = []
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                children += [int(child) for child in listing.read().split()]
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return seconds + sum(tree_cpu_seconds(child) for child in children)


def wait_for_work(process: subprocess.Popen[str], cpu_seconds: float,
                  timeout: float = 120) -> None:
    """Return once ``process`` and its children have spent ``cpu_seconds`` more CPU
    time (a count of work, whatever the machine's load), or once it has exited."""
    target = tree_cpu_seconds(process.pid) + cpu_seconds
    deadline = time.monotonic() + timeout
    while process.poll() is None and tree_cpu_seconds(process.pid) < target:
        if time.monotonic() > deadline:
            raise AssertionError(f"the child did not spend {cpu_seconds} s of CPU time "
                                 f"in {timeout} s")
        time.sleep(0.01)


def interrupt(argv: list[str], timeout: float = 60) -> Stopped:
    """Run argv (which prints ``started``, then ``running`` once its call runs: see
    REPORT_RUNNING) in a new empty working directory, SIGINT it, wait for its exit."""
    with tempfile.TemporaryDirectory() as cwd:
        stopped = _interrupt(argv, timeout, cwd)
        stopped.left = sorted(os.listdir(cwd))
    return stopped


def _interrupt(argv: list[str], timeout: float, cwd: str) -> Stopped:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=cwd, preexec_fn=restore_sigint)
    try:
        for expected in ("started", "running"):
            line = proc.stdout.readline()
            if line.strip() != expected:
                out, err = proc.communicate(timeout=timeout)
                raise AssertionError(f"expected {expected!r} from the child: {line}{out}{err}")
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the call ended before SIGINT: {out}{err}")
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {timeout} s after SIGINT") from None
        exited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    latency = exited
    words = out.split()
    if len(words) == 3 and words[0] == "stopped":
        latency = float(words[2]) - sent
    return Stopped(proc.returncode, out, err, latency, exited, [])


def interrupt_call(name: str) -> Stopped:
    return interrupt([sys.executable, "-c",
                      _CHILD.format(report_running=REPORT_RUNNING, call=CALLS[name])])


def interrupt_cli(name: str) -> Stopped:
    return interrupt([sys.executable, "-c", _CLI_CHILD, *CLI_CALLS[name]])


#: name -> a df-pn call that runs for hours (``katra``, ``_core`` and a ``solver``, one
#: ``_core.DfpnSolver()`` kept across the rounds, in scope): stopped by
#: ``_thread.interrupt_main()`` (interrupt_main_dfpn).
DFPN_CALLS = {
    "katra.solve": "katra.solve('katro')",
    "DfpnSolver.prove": "solver.prove(_core.Position.initial('katro'), 0, 1)",
}

#: How often interrupt_main_rounds's child starts the call and interrupts it.
ROUNDS = 4

#: name -> (set-up code, a call that runs for hours, code run after the rounds that
#: prints what the test compares), run by interrupt_main_rounds with ``os``, ``katra``
#: and ``_core`` imported.
ROUND_CALLS = {
    # one _core.DfpnSolver() kept across the rounds; after them, df-pn's answer from the
    # Katro 4x4 start with a new solve (outcome, plies, nodes) and the kept solver's
    # status on it
    **{name: ("solver = _core.DfpnSolver()", call,
              'small = katra.solve("katro-4x4")\n'
              'print(small.outcome, small.plies, small.nodes, '
              'solver.prove(_core.Position.initial("katro-4x4"), 0, 1)[0])')
       for name, call in DFPN_CALLS.items()},
    # after them, the tables of up to 8 seeds built again: the file's size and SHA-256
    "tables build": ("import hashlib", TABLES_BUILD,
                     'katra.api.build_tables("djenon-aboure", 8, "after.bin")\n'
                     'data = open("after.bin", "rb").read()\n'
                     'print(len(data), hashlib.sha256(data).hexdigest())'),
}

#: Child code: ROUNDS times, the call interrupted (``interrupted``).  Then it prints the
#: longest seconds from an interrupt to KeyboardInterrupt, the threads alive, the
#: resident memory's growth from the second round's end to the last's (glibc keeps the
#: first large block freed in its free lists for reuse, raising its mmap threshold: so
#: the first round's release may keep one table's worth), its peak's growth from before
#: the first call (bytes) and the files left in the working directory; then what the
#: call's after code prints.
_ROUNDS_CHILD = """\
import os, resource
import katra
from katra import _core
def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
{setup}
before = resident()
latencies, sizes = [], []
for _ in range({rounds}):
    latencies.append(interrupted(lambda: {call}))
    sizes.append(resident())
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
print("stopped", repr(max(latencies)), threading.active_count(), sizes[-1] - sizes[1], peak,
      len(os.listdir()), flush=True)
{after}
"""


@dataclass
class InterruptedRounds:
    latency: float         # the longest seconds from interrupt_main() to KeyboardInterrupt
    threads: int           # threads alive in the child afterwards (1: the main thread)
    growth: int            # resident bytes gained from the second round's end to the last's
    peak: int              # the peak resident bytes above those before the first call
    left: int              # files left in the child's working directory (a new empty one)
    after: list[str]       # the words the call's after code printed


def interrupt_main_rounds(name: str, timeout: float = 120) -> InterruptedRounds:
    """Run ROUND_CALLS[name] ROUNDS times in a child that interrupts each with
    interrupt_main()."""
    setup, call, after = ROUND_CALLS[name]
    words = _run_interrupted(name, _ROUNDS_CHILD.format(setup=setup, rounds=ROUNDS, call=call,
                                                        after=after), timeout)
    return InterruptedRounds(float(words[0]), int(words[1]), int(words[2]), int(words[3]),
                             int(words[4]), words[5:])


@dataclass
class InterruptedDfpn(InterruptedRounds):
    after: tuple[str, int, int]  # katra.solve("katro-4x4") afterwards: outcome, plies, nodes
    status: int            # the kept solver's status on the Katro 4x4 start's "South wins"


def interrupt_main_dfpn(name: str, timeout: float = 120) -> InterruptedDfpn:
    """Run DFPN_CALLS[name] ROUNDS times in a child that interrupts each with
    interrupt_main() (interrupt_main_rounds)."""
    stopped = interrupt_main_rounds(name, timeout)
    outcome, plies, nodes, status = stopped.after
    return InterruptedDfpn(**{**vars(stopped), "after": (outcome, int(plies), int(nodes))},
                           status=int(status))
