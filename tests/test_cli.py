"""The ``katra`` command line, run as a subprocess (``python -m katra``)."""
import json
import subprocess
import sys

import pytest


def run(*args):
    return subprocess.run([sys.executable, "-m", "katra", *args], capture_output=True,
                          text=True, timeout=120)


def test_perft_plain_output():
    result = run("perft", "katro", "5")
    assert result.returncode == 0, result.stderr
    assert "nodes    3244" in result.stdout
    assert run("perft", "katro", "5", "-q").stdout == "3244\n"


def test_perft_json_with_divide_on_a_position_text():
    text = "katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S"
    result = run("perft", text, "3", "--divide", "--json", "--backend", "reference")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["position"] == text and record["depth"] == 3 and record["nodes"] == 56
    assert set(record["divide"]) == {"a1", "b1", "c1", "d1"}
    assert sum(record["divide"].values()) == 56
    assert isinstance(record["seconds"], float)


def test_perft_same_on_both_backends():
    core = json.loads(run("perft", "gore", "4", "--json").stdout)
    ref = json.loads(run("perft", "gore", "4", "--json", "--backend", "reference").stdout)
    assert core["nodes"] == ref["nodes"] == 241


def test_playouts_json():
    result = run("playouts", "djenon-aboure", "10", "--seed", "3", "--max-plies", "200",
                 "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert set(record) == {"position", "games", "south_wins", "north_wins", "draws",
                           "unfinished", "plies", "seconds"}
    assert record["games"] == 10
    assert sum(record[k] for k in ("south_wins", "north_wins", "draws", "unfinished")) == 10
    ref = json.loads(run("playouts", "djenon-aboure", "10", "--seed", "3", "--max-plies", "200",
                         "--json", "--backend", "reference").stdout)
    assert {k: v for k, v in ref.items() if k != "seconds"} == {
        k: v for k, v in record.items() if k != "seconds"}


@pytest.mark.parametrize("args,fragment", [
    (["perft", "chess", "3"], "unknown game"),
    (["perft", "katro 2,2/2,2 S", "3"], "rows"),
    (["perft", "katro", "-1"], "DEPTH"),
    (["perft", "katro", "two"], "whole number"),
    (["perft", "katro", "0", "--divide"], "divide"),
    (["perft", "katro", "2", "--backend", "gpu"], "backend"),
    (["playouts", "gore", "10", "--seed", "x"], "seed"),
    (["playouts", "gore", "10", "--seed", str(2**64)], "seed"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
])
def test_bad_input_is_one_line_and_status_2(args, fragment):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert fragment in lines[0]


def test_console_script_is_installed():
    result = subprocess.run(["katra", "perft", "katro-4x4", "3", "-q"], capture_output=True,
                            text=True, timeout=60)
    assert result.stdout == "56\n"
