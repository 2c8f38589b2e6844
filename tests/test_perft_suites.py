"""katra's shipped perft suites, ``katra.testing.perft_suite`` and ``katra perft --suite``."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

import katra
from helpers import katra_in_process
from katra._games import GAME_IDS
from katra.testing import perft_suite, read_suite
from perft_files import DATA, read_perft_file

PLANTED = Path(__file__).parent / "planted"
EXAMPLE = shlex.join([sys.executable, "-m", "katra.testing.example"])

#: Suite counts up to this size are also recounted on the pure-Python reference here.
REFERENCE_RECOUNT = 3_000


def katra_cli(*args):
    """``katra ARGS`` in this process (the programs it checks run as programs)."""
    return katra_in_process(*args)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_shipped_suite_counts(game_id):
    vectors = list(perft_suite(game_id))
    positions = {text for text, _, _ in vectors}
    start = katra.game(game_id).initial_state().text()
    assert start in positions and len(positions) >= 3  # start and mid-game positions
    for text in positions:
        assert len([d for t, d, _ in vectors if t == text]) >= 3  # several depths each
    recounted = 0
    for text, depth, count in vectors:
        assert katra.perft(text, depth) == count, (text, depth)
        if count <= REFERENCE_RECOUNT:
            assert katra.perft(text, depth, backend="reference") == count, (text, depth)
            recounted += 1
    assert recounted >= 6
    # The repository's own vectors (tests/data/perft) agree with the shipped suite.
    shipped = {(t, d): c for t, d, c in vectors}
    for _, text, depth, nodes in read_perft_file(DATA / f"{game_id}.perft"):
        assert shipped.get((text, depth), nodes) == nodes


def test_suites_hold_the_special_positions():
    assert any(" offer=" in text for text, _, _ in perft_suite("Goré"))
    djenon = [katra.State.from_text(t) for t, _, _ in perft_suite("djenon")]
    assert any(s.legal_actions() == [12] for s in djenon)  # a forced pass


def test_perft_suite_unknown_game():
    with pytest.raises(ValueError, match="unknown game"):
        list(perft_suite("chess"))


@pytest.mark.parametrize("text, fragment", [
    ("perft 1 4\n", "needs a 'position' line"),
    ("position gore 6,6,6,6/6,6,6,6 S\nperft one 4\n", "expected 'perft DEPTH COUNT'"),
    ("position katro 2,2/2,2 S\n", "rows"),
    ("fen x\n", "unknown line"),
    ("# only a comment\n", "no 'perft DEPTH COUNT' line"),
    ("position gore 6,6,6,6/6,6,6,6 S\nperft 0 1\n", "depth 0"),
])
def test_read_suite_names_the_bad_line(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        read_suite(text)


def test_cli_suite_of_katra_passes():
    result = katra_cli("perft", "--suite", "gore")
    assert result.returncode == 0, result.stderr
    count = len(list(perft_suite("gore")))
    assert result.stdout.endswith(f"{count} of {count} counts of katra's gore suite pass for "
                                  "katra (core)\n")
    assert result.stdout.startswith("ok   gore-start depth 1: expected 4, got 4\n")


def write_suite(tmp_path, lines):
    path = tmp_path / "mine.perft"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


GORE_START = "gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS"


def test_cli_suite_with_a_wrong_count_in_the_file(tmp_path):
    suite = write_suite(tmp_path, ["id start", f"position {GORE_START}", "perft 3 64",
                                   "perft 4 240"])
    result = katra_cli("perft", "--suite", suite)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "ok   start depth 3: expected 64, got 64",
        "FAIL start depth 4: expected 240, got 241",
        "     katra and the reference both count 241: the suite's count is wrong",
        f"1 of 2 counts of {suite} pass for katra (core)"]


def test_cli_suite_against_a_program_with_a_planted_mistake(tmp_path):
    suite = write_suite(tmp_path, ["id start", f"position {GORE_START}", "perft 5 947",
                                   "perft 6 3701"])
    program = shlex.join([sys.executable, str(PLANTED / "gore_offer.py")])
    result = katra_cli("perft", "--suite", suite, "--command", program, "--json")
    assert result.returncode == 1
    record = json.loads(result.stdout)
    assert (record["passed"], record["failed"]) == (1, 1)
    failure = record["results"][1]
    assert (failure["depth"], failure["expected"], failure["nodes"]) == (6, 3701, 3633)
    assert failure["difference"]["position"] == \
        "gore 11,0,0,12/4,3,11,1 N stores=6,0 owners=NNNN/SSSS"
    assert failure["difference"]["path"] == ["a1", "c2", "b1", "b2", "d1"]
    assert failure["difference"]["missing"] == ["offer:a2", "offer:b2", "offer:c2", "offer:d2"]
    depth_6 = write_suite(tmp_path, ["id start", f"position {GORE_START}", "perft 6 3701"])
    text = katra_cli("perft", "--suite", depth_6, "--command", program).stdout
    assert "FAIL start depth 6: expected 3701, got 3633\n     katra and the command disagree " \
           "about the legal moves (ply 5 from the start)" in text
    assert "     missing    offer:a2 offer:b2 offer:c2 offer:d2" in text


def test_cli_suite_against_the_correct_program(tmp_path):
    text = "djenon-aboure 1,5,1,0,3,2/1,2,1,1,3,8 S stores=12,8"
    suite = write_suite(tmp_path, ["id mid", f"position {text}", "perft 4 60", "perft 6 222"])
    result = katra_cli("perft", "--suite", suite, "--command", EXAMPLE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("2 of 2 counts")


@pytest.mark.parametrize("args, fragment", [
    (["perft", "--suite", "no-such-file"], "neither a suite file nor a game name"),
    (["perft", "--suite", "gore", "gore", "3"], "takes no GAME_OR_POSITION"),
    (["perft"], "GAME_OR_POSITION and DEPTH are required"),
    (["perft", "gore"], "GAME_OR_POSITION and DEPTH are required"),
])
def test_cli_suite_bad_input(args, fragment):
    result = katra_cli(*args)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and fragment in result.stderr
