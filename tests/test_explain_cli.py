"""Showing a move: ``katra show ... --explain``, the SVG pictures, the replay page and the
referee's lap report (docs/explain.md).

The laps asserted are hand-worked from docs/rules.md (the paths of §2.1 and the
landing tests of §2.3); the pictures and the page are parsed with the standard
library and must name no address (no network, no external script or font).
"""
import json
import os
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pexpect
import pytest

import katra
from helpers import katra_in_process

PLANTED = Path(__file__).parent / "planted"
#: katro-4x4: North's d4 takes 15 laps (more than the 12 shown without --all).
LONG_MOVE = "katro-4x4 2,5,0,4/2,0,0,0/4,1,1,3/2,1,6,1 N"
SVG = "{http://www.w3.org/2000/svg}"


def run(*args):
    """``katra ARGS`` in this process (the terminal tests spawn it as a program)."""
    return katra_in_process(*args)


def sgr_parameters(text):
    """Every parameter of every SGR escape sequence (``ESC [ ... m``) in ``text``."""
    return [p for group in re.findall(r"\x1b\[([0-9;]*)m", text) for p in group.split(";") if p]


COLOURS = {str(n) for n in [*range(30, 39), *range(40, 49), *range(90, 98), *range(100, 108)]}


# ---------------------------------------------------------------- the terminal

def test_show_explain_prints_each_lap_plain_when_piped():
    result = run("show", "katro-4x4", "c1", "--explain")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "\x1b" not in out
    # Hand-worked (§2.1 path a1 b1 c1 d1 d2 c2 b2 a2; §2.3 landing tests).
    assert "South plays c1: 3 laps" in out
    laps = [line for line in out.splitlines() if line.startswith("lap ")]
    assert laps == [
        "lap 1: 2 seeds from c1, lands on d2, which held 2: capture d3 (2 seeds)",
        "lap 2: 5 seeds from d2, lands on b1, which held 2: relay",
        "lap 3: 3 seeds from b1, lands on d2, which was empty: end",
    ]
    lap1 = out[out.index("lap 1:"):out.index("lap 2:")]
    # lap 1's board: c1 lifted (o), d1 sown (+), d2 the landing (*), d3 captured (x).
    assert "  sows d1 d2" in lap1
    assert "3   2  2  2 x2" in lap1 and "2   2  2  2 *3" in lap1 and "1   2  2 o0 +3" in lap1
    assert "marks: o lifted, + sown, * landing hole, x captured" in out
    assert out.rstrip().endswith("position katro-4x4 2,2,2,2/2,2,2,0/3,3,3,1/3,0,1,4 N")


def test_long_moves_show_the_first_laps_and_a_summary_unless_all():
    short = run("show", LONG_MOVE, "d4", "--explain")
    assert short.returncode == 0, short.stderr
    shown = [line for line in short.stdout.splitlines() if line.startswith("lap ")]
    assert len(shown) == 12 and shown[-1].startswith("lap 12:")
    assert "... 3 more laps" in short.stdout and "--all shows every lap" in short.stdout
    assert "ends on lap 15" in short.stdout
    every = run("show", LONG_MOVE, "d4", "--explain", "--all")
    laps = [line for line in every.stdout.splitlines() if line.startswith("lap ")]
    trace = katra.explain(LONG_MOVE, "d4")
    assert laps == [lap.text() for lap in trace.laps] and len(laps) == 15
    assert "more laps" not in every.stdout


def test_earlier_moves_are_played_first():
    result = run("show", "katro-4x4", "a1", "c4", "--explain")
    assert result.returncode == 0, result.stderr
    assert "North plays c4" in result.stdout
    expected = katra.State("katro-4x4").child("a1").explain("c4")
    assert f"position {expected.after.text()}" in result.stdout


def _spawn_show(env_extra):
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="50", **env_extra)
    if "NO_COLOR" not in env_extra:
        env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "katra", "show", "katro-4x4", "c1", "--explain"],
                          encoding="utf-8", timeout=120, dimensions=(50, 160), env=env)
    child.expect(pexpect.EOF)
    return child.before


def test_colour_on_a_terminal_and_none_with_no_color():
    coloured = _spawn_show({})
    assert COLOURS & set(sgr_parameters(coloured)), "no colour on a terminal"
    plain = _spawn_show({"NO_COLOR": "1"})
    assert not COLOURS & set(sgr_parameters(plain))
    # The marks do not depend on colour.
    stripped = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]", "", plain)
    assert "2  2  2 *3" in stripped and "o0 +3" in stripped


@pytest.mark.parametrize("args, fragment", [
    (["show", "katro-4x4", "c2", "--explain"], "is not legal here"),
    (["show", "katro-4x4", "--explain"], "--explain needs a MOVE"),
    (["show", "katro-4x4", "c1", "--all"], "--all goes with --explain"),
    (["show", "katro-4x4 2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", "c1", "--explain"], "row"),
    (["show", "katro-4x4", "c1", "--explain", "--svg", "/no/such/folder/x.svg"],
     "cannot write"),
])
def test_bad_input_is_one_line_and_status_2(args, fragment):
    result = run(*args)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and fragment in result.stderr
    assert result.stdout == ""


# ---------------------------------------------------------------- pictures

def parse_svg(text):
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    for element in root.iter():
        for name, value in element.attrib.items():
            assert "http" not in value or name == "xmlns", (name, value)  # nothing fetched
            assert not name.endswith("href") or value.startswith("#")
    return root


def texts(root):
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def test_trace_svg_draws_every_lap_numbered_and_the_captures():
    trace = katra.explain("katro-4x4", "c1")
    root = parse_svg(trace.svg())
    assert len(root.findall(f".//{SVG}polyline")) == 3          # one arrow per lap
    words = texts(root)
    assert {"1", "2", "3"} <= set(words)                        # the laps' numbers
    assert [lap.text() for lap in trace.laps] == [w for w in words if w.startswith("lap ")]
    crosses = [p for p in root.iter(f"{SVG}path") if p.find(f"{SVG}title") is not None
               and p.find(f"{SVG}title").text == "captured on lap 1"]
    assert len(crosses) == 1                                    # d3
    assert trace._repr_svg_() == trace.svg()


def test_trace_svg_frames_one_per_lap():
    trace = katra.explain("katro-4x4", "c1")
    for k, lap in enumerate(trace.laps, start=1):
        root = parse_svg(trace.svg(lap=k))
        assert len(root.findall(f".//{SVG}polyline")) == 1
        words = texts(root)
        assert lap.text() in words and f"sows {' '.join(lap.sown)}" in words
        counts = [int(element.text) for element in root.iter(f"{SVG}text")
                  if element.get("font-size") == f"{max(8, 48 * 0.36):.1f}"]
        assert counts[:16] == list(lap.board)  # the board as the lap leaves it
    for bad in (0, 4, -1, "1", True):
        with pytest.raises(ValueError, match="lap must be"):
            trace.svg(lap=bad)
    with pytest.raises(ValueError, match="none: the move sows nothing"):
        katra.explain("gore 5,0,0,0/0,3,0,0 N stores=24,16 owners=NNNN/SSSS",
                      "offer:c2,d2").svg(lap=1)


def test_a_long_move_draws_its_first_laps_and_says_so():
    trace = katra.explain(LONG_MOVE, "d4")
    root = parse_svg(trace.svg())
    assert len(root.findall(f".//{SVG}polyline")) == 12
    assert "... laps 13-15 not drawn (svg(lap=k) draws any one)" in texts(root)
    parse_svg(trace.svg(lap=15))


def test_board_svg_says_who_moves_labels_stores_and_explains_marks():
    state = katra.State("gore")
    words = texts(parse_svg(state.svg()))
    assert "South to move" in words and "North" in words and "South" in words
    assert {"South's hole", "North's hole", "offered"} <= set(words)
    state.push("b1")
    words = texts(parse_svg(state.svg()))
    assert "North to move" in words and "last move: South b1 (ringed in red)" in words
    # No line between the halves in Goré (owners change); one in the other games.
    assert parse_svg(state.svg()).find(f".//{SVG}line") is None
    mpantsaka = katra.State("katra-mpantsaka").child("c2+")
    root = parse_svg(mpantsaka.svg())
    assert len(root.findall(f".//{SVG}line")) == 1
    assert "last move: South c2+ (counter-clockwise) (ringed in red)" in texts(root)
    assert "last move: South c2- (clockwise) (ringed in red)" in texts(
        parse_svg(katra.State("katra-mpantsaka").child("c2-").svg()))
    over = katra.State.from_text("gore 2,1,0,2/0,1,2,0 S stores=20,20 owners=NNNN/SSSS")
    assert "game over: North won 23-25 (board exhausted)" in texts(parse_svg(over.svg()))


def test_show_svg_writes_the_picture(tmp_path):
    path = tmp_path / "move.svg"
    result = run("show", "djenon-aboure", "c1", "--explain", "--svg", str(path))
    assert result.returncode == 0, result.stderr
    assert path.read_text(encoding="utf-8") == katra.explain("djenon-aboure", "c1").svg()
    board = tmp_path / "board.svg"
    assert run("show", "gore", "b1", "--svg", str(board)).returncode == 0
    assert board.read_text(encoding="utf-8") == katra.State("gore").child("b1").svg()


# ---------------------------------------------------------------- the replay page

# (the page itself: tests/test_replay_page.py)

def test_replay_html_bad_output_path(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(katra.State("gore").child("b1").record(), encoding="utf-8")
    result = run("replay", str(record), "--html", str(tmp_path / "no" / "page.html"))
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "cannot write" in result.stderr
    both = run("replay", str(record), "--html", str(tmp_path / "page.html"), "--ply", "1")
    assert both.returncode == 2 and "it takes no --ply" in both.stderr
    assert not (tmp_path / "page.html").exists()


# ---------------------------------------------------------------- the referee

def test_diff_walk_reports_katras_laps_of_the_differing_move():
    program = shlex.join([sys.executable, str(PLANTED / "katro_capture.py")])
    result = run("diff", "--walk", program, "katro-4x4", "--games", "50", "--max-plies", "200",
                 "--json")
    assert result.returncode == 1, result.stderr
    record = json.loads(result.stdout)
    assert record["kind"] == "text"
    trace = katra.explain(record["position"], record["move"])
    assert len(record["laps"]) == trace.total_laps
    assert [line.split("   <-")[0] for line in record["laps"]] == [
        lap.text(sown=True) for lap in trace.laps]
    marked = [line for line in record["laps"] if "<- the first lap that touches" in line]
    assert len(marked) == 1
    text_report = run("diff", "--walk", program, "katro-4x4", "--games", "50",
                      "--max-plies", "200")
    assert f"katra plays {record['move']} in {trace.total_laps} laps:" in text_report.stdout
