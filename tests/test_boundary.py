"""One boundary between the layers: each argument checked once, the same
exception for the same mistake on every layer, positions passed as objects, and
jobs split only when a split pays.

The split decisions are driven by node and ply counts (katra.api._parallel's
probe), never by the clock, so what runs as one call is the same on any machine.
"""
import ast
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import katra
import katra.cli
import katra.testing
from helpers import BACKENDS, katra_in_process
from katra import _limits, _reference
from katra._errors import ArgumentError, ArgumentTypeError, KatraError
from katra.api import _parallel, load_position

# ---------------------------------------------------------------- one check, one exception


def test_the_two_argument_errors_are_katra_value_errors():
    assert issubclass(ArgumentError, KatraError) and issubclass(ArgumentError, ValueError)
    assert issubclass(ArgumentTypeError, ArgumentError)
    assert issubclass(ArgumentTypeError, TypeError)
    assert katra.ArgumentError is ArgumentError and katra.ArgumentTypeError is ArgumentTypeError


@pytest.mark.parametrize("value", [True, 1.0, "3", None, 2**70 * 1.0])
def test_check_int_refuses_what_is_not_an_int(value):
    with pytest.raises(ArgumentTypeError, match=r"^depth must be an int, not "):
        _limits.check_int(value, "depth", 0, 10)


def test_check_int_takes_its_bounds_and_refuses_beyond():
    assert _limits.check_int(0, "n", 0, 10) == 0 and _limits.check_int(10, "n", 0, 10) == 10
    for value in (-1, 11, 10**30):
        with pytest.raises(ArgumentError, match=rf"^n must be in 0\.\.10, got {value}$") as e:
            _limits.check_int(value, "n", 0, 10)
        assert not isinstance(e.value, TypeError)
    with pytest.raises(ArgumentError, match=r"games must be in 0\.\.2\*\*62, got"):
        _limits.check_int(2**62 + 1, "games", 0, _limits.MAX_GAMES)


# (keyword, bad value, exception): each playout argument, on every layer.
BAD_PLAYOUT_ARGS = [
    ("games", -1, ArgumentError), ("games", 2**62 + 1, ArgumentError),
    ("games", 3.0, ArgumentTypeError), ("seed", 2**64, ArgumentError),
    ("seed", True, ArgumentTypeError), ("max_plies", -1, ArgumentError),
    ("max_plies", "9", ArgumentTypeError),
    ("first_game", 2**62, ArgumentError), ("first_game", -1, ArgumentError),
]


@pytest.mark.parametrize("name,value,error", BAD_PLAYOUT_ARGS)
def test_bad_playout_arguments_raise_the_same_on_every_python_layer(name, value, error):
    args = {"games": 3, "seed": 1, "max_plies": 50, "first_game": 0, name: value}
    calls = [lambda b=backend, j=jobs: katra.playouts(
                 "gore", args["games"], seed=args["seed"], max_plies=args["max_plies"],
                 first_game=args["first_game"], backend=b, jobs=j)
             for backend in BACKENDS for jobs in (1, 2)]
    for module in (_reference, katra._core):     # the backends themselves
        calls.append(lambda m=module: m.playouts(m.Position.initial("gore"), args["games"],
                                                 args["seed"], args["max_plies"],
                                                 args["first_game"]))
    if name != "first_game":
        calls.append(lambda: katra.testing.compare(_reference.Position.from_text, "gore",
                                                   args["games"], args["seed"],
                                                   args["max_plies"]))
    for call in calls:
        with pytest.raises(error, match=name) as raised:
            call()
        assert type(raised.value) is error


@pytest.mark.parametrize("depth,error", [(501, ArgumentError), (-1, ArgumentError),
                                         (10**20, ArgumentError), (2.0, ArgumentTypeError),
                                         (True, ArgumentTypeError)])
def test_bad_perft_depths_raise_the_same_on_every_python_layer(depth, error):
    state = katra.game("katro").initial_state()
    for backend in BACKENDS:
        s = state if backend == "core" else katra.State("katro", backend="reference")
        for call in (lambda b=backend: katra.perft("katro", depth, backend=b),
                     lambda b=backend: katra.perft("katro", depth, backend=b, jobs=2),
                     lambda b=backend: katra.divide("katro", depth, backend=b, jobs=0),
                     lambda s=s: s.perft(depth), lambda s=s: s.divide(depth)):
            with pytest.raises(error, match="depth") as raised:
                call()
            assert type(raised.value) is error
    for module in (_reference, katra._core):
        for job in (module.perft, module.divide):
            with pytest.raises(error, match="depth") as raised:
                job(module.Position.initial("katro"), depth)
            assert type(raised.value) is error


def test_state_divide_needs_a_depth_of_one_as_divide_does():
    for backend in BACKENDS:
        state = katra.State("katro-4x4", backend=backend)
        with pytest.raises(ArgumentError, match=r"depth must be in 1\.\.500, got 0"):
            state.divide(0)
        with pytest.raises(ArgumentError, match=r"depth must be in 1\.\.500, got 0"):
            katra.divide(state, 0)
        assert state.perft(0) == katra.perft(state, 0) == 1


@pytest.mark.parametrize("jobs,error", [(-1, ArgumentError), (4097, ArgumentError),
                                        (1.5, ArgumentTypeError), ("2", ArgumentTypeError)])
def test_bad_jobs_raise_the_documented_errors(jobs, error):
    for call in (lambda: katra.perft("katro", 3, jobs=jobs),
                 lambda: katra.playouts("katro", 3, jobs=jobs)):
        with pytest.raises(error, match="jobs"):
            call()


def test_search_limits_are_the_shared_ones():
    assert katra.api.MATE is _limits.MATE
    with pytest.raises(ArgumentError, match=r"depth must be in 1\.\.64, got 65"):
        katra.search("katro-4x4", depth=65)
    with pytest.raises(ArgumentTypeError, match="depth must be an int"):
        katra.search("katro-4x4", depth=2.0)
    with pytest.raises(ArgumentTypeError, match="time must be a number of seconds"):
        katra.search("katro-4x4", time="1")
    with pytest.raises(ArgumentError, match="time must be a number of seconds in"):
        katra.search("katro-4x4", time=float("nan"))


def test_a_bad_position_argument_is_a_type_error_too():
    with pytest.raises(ArgumentTypeError, match="position must be"):
        katra.perft(3.5, 2)


# ---------------------------------------------------------------- the splitter checks first

@pytest.mark.parametrize("depth", [400, 500])
def test_the_planner_sizes_very_deep_trees_in_integers(depth):
    # Floats overflowed here before (OverflowError from the planner at depth 400).
    module, root = katra._core, load_position("katro")
    cap = _parallel.MIN_SPLIT_NODES["threads"]
    size, counted = _parallel.perft_size(module, root, depth, _parallel.PROBE_NODES, cap)
    assert size == cap and counted is None
    plan = _parallel.plan_perft("core", root, depth, 2, _parallel.MIN_TASK_NODES["threads"])
    assert len(plan.positions) >= 2 * _parallel.TASKS_PER_WORKER
    assert plan.depth == depth - 2  # 36 distinct positions 2 plies deep


@pytest.mark.parametrize("depth", ["501", "99999999999999999999"])
@pytest.mark.parametrize("jobs", [[], ["--jobs", "1"], ["--jobs", "2"]])
def test_cli_refuses_too_deep_perft_in_one_line_whatever_the_jobs(depth, jobs):
    result = katra_in_process("perft", "katro", depth, *jobs)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"katra perft: argument DEPTH: depth must be in 0..500, got {depth}\n"


def test_scheduler_local_without_dask_exits_2():
    script = ("import sys; sys.modules['distributed'] = None\n"
              "from katra.cli.main import main\n"
              "sys.exit(main(['perft', 'katro', '3', '--scheduler', 'local']))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("katra: --scheduler needs dask: pip install '.[dask]' in katra's "
                             "source folder, or pip install 'WHEEL[dask]' with the path of "
                             "katra's wheel file (dist/katra-*.whl)\n")


# ---------------------------------------------------------------- split only when it pays

class RunSpy:
    """Counts the split runs (Workers.run) and the threads alive during a call."""

    def __init__(self, monkeypatch):
        self.runs = 0
        real = _parallel.Workers.run

        def run(workers, *args, **kwargs):
            self.runs += 1
            return real(workers, *args, **kwargs)

        monkeypatch.setattr(_parallel.Workers, "run", run)


@pytest.mark.parametrize("call", [
    lambda: katra.perft("gore", 5, jobs=2),                               # 947 nodes
    lambda: katra.perft("katra-mpantsaka-simplified", 3, jobs=0),         # 20,812 nodes
    lambda: katra.divide("katro", 6, jobs=2),
    lambda: katra.perft("katro", 1, jobs=2),
    lambda: katra.playouts("djenon-aboure", 100, seed=3, jobs=2),
    lambda: katra.playouts("gore", 1, jobs=0),
])
def test_small_jobs_run_as_one_call(monkeypatch, call):
    spy = RunSpy(monkeypatch)
    before = threading.active_count()
    call()
    assert spy.runs == 0 and threading.active_count() == before


def test_large_jobs_are_split_and_exact(monkeypatch):
    spy = RunSpy(monkeypatch)
    whole = katra.divide("katro", 8)
    assert spy.runs == 0
    assert katra.divide("katro", 8, jobs=2) == whole and spy.runs == 1
    tally = katra.playouts("gore", 400, seed=5)
    assert katra.playouts("gore", 400, seed=5, jobs=2) == tally and spy.runs == 2


def test_the_probe_gives_the_answer_when_it_reaches_the_depth():
    root = load_position("katro")
    size, counted = _parallel.perft_size(katra._core, root, 4, 10_000, 10**9)
    assert counted == [(a, n) for a, n in katra._core.divide(root, 4)]
    assert size == 1 + 6 + 36 + 168 + 784  # every ply's nodes (docs/rules.md §1.4)
    # Every line ends within 3 plies: perft 2, 2, 2 then 0 at every deeper depth.
    ending = load_position("djenon-aboure 1,1,2,0,0,0/1,2,1,6,0,0 S stores=18,16")
    size, counted = _parallel.perft_size(katra._core, ending, 500, 10_000, 10**9)
    assert size == 1 + 2 + 2 + 2 and counted == [(a, 0) for a in ending.legal_actions()]
    assert katra.divide(ending, 500, jobs=2) == katra.divide(ending, 30) == {"b1": 0, "d1": 0}


def test_playout_probe_games_are_part_of_the_answer():
    # The first games size the job (1, 2, 4, ...); the rest is one call or split.
    for games in (1, 2, 3, 7, 100):
        assert katra.playouts("katro", games, seed=9, jobs=2) == katra.playouts(
            "katro", games, seed=9)
        assert katra.playouts("gore", games, seed=9, first_game=5, max_plies=100, jobs=2,
                              backend="reference") == katra.playouts(
            "gore", games, seed=9, first_game=5, max_plies=100)


def test_progress_reports_tasks_and_amounts():
    seen = []
    nodes = katra.perft("gore", 4, jobs=2, progress=lambda *p: seen.append(p))
    assert nodes == katra.perft("gore", 4) and seen == [(1, 1, nodes)]  # one call
    seen.clear()
    katra.divide("katro", 8, jobs=2, progress=lambda *p: seen.append(p))
    tasks = seen[0][1]
    assert seen[0] == (0, tasks, 0) and seen[-1] == (tasks, tasks, katra.perft("katro", 8))
    assert [done for done, _, _ in seen] == list(range(tasks + 1))


# ---------------------------------------------------------------- objects between layers

def test_a_position_text_is_read_once_on_its_way_to_the_tasks(monkeypatch):
    from katra import _text
    reads = []
    real = _text.parse_position
    monkeypatch.setattr(_text, "parse_position", lambda text: reads.append(text) or real(text))
    text = katra.game("katro").initial_state().text()
    assert katra.perft(text, 8, jobs=2) == katra.perft("katro", 8)
    assert reads == [text]


def test_the_counting_commands_import_nothing_private_from_the_api():
    for path in (Path(katra.cli.__file__).parent / name
                 for name in ("main.py", "common.py", "counting.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("katra.api."), (path.name, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("katra.api.") for a in node.names), path.name
