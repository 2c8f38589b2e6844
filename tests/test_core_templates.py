"""The core's per-game and per-form lists, written from the game table.

setup.py writes cython_core/*.pxi.in out with cython_core/_templates.py from
the rows of katra._games.GAMES: a new board size of an existing family is one
row there.  These tests render the templates for the table with an extra row
and read the text; tools/check_new_size.py (the slow test below) builds such
a core and plays the new game against the reference.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import katra._core as core
from helpers import build_tools_missing
from katra import _games

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "cython_core"


def load_templates() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("katra_core_templates", CORE / "_templates.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


templates = load_templates()


def table_with(*rows: _games.GameSpec) -> types.SimpleNamespace:
    """The game table with rows appended."""
    games = dict(_games.GAMES)
    for row in rows:
        games[row.id] = row
    return types.SimpleNamespace(GAMES=games, FAMILIES=_games.FAMILIES)


KATRO_6X4 = dataclasses.replace(_games.GAMES["katro-4x6"], id="katro-6x4", name="Katro 6x4",
                                rows=6, cols=4)
DJENON_2X8 = dataclasses.replace(_games.GAMES["djenon-aboure"], id="djenon-2x8",
                                 name="Djenon 2x8", cols=8, num_actions=17, aliases=())


def render(name: str, games: types.SimpleNamespace) -> str:
    return templates.render(CORE / name, games)


def c_array(text: str, name: str) -> list[int]:
    found = re.search(rf"static const int {name}\[(\d+)\] = \{{([^}}]*)\}};", text)
    assert found is not None, name
    values = [int(v) for v in found.group(2).split(",")]
    assert len(values) == int(found.group(1))
    return values


def test_the_build_reads_this_table() -> None:
    """The compiled core was written from katra._games as it is; in a source tree
    that was built here, the templates' written files are the table's rendering
    (an unpacked sdist tested against an installed wheel has none)."""
    assert core.CORE_GAME_IDS == _games.GAME_IDS
    names = templates.core_games(_games)
    assert [g.symbol for g in names] == ["KATRO", "KATRO_4X6", "KATRO_4X4", "KATRA_MPANTSAKA",
                                         "KATRA_MPANTSAKA_SIMPLIFIED", "GORE", "DJENON_ABOURE"]
    for name in ("_games.pxi.in", "_forms.pxi.in", "_dispatch.pxi.in"):
        written = CORE / name.removesuffix(".in")
        if written.exists():
            assert written.read_text(encoding="utf-8") == render(name, _games), name


def test_a_new_katro_size_is_one_row() -> None:
    games = table_with(KATRO_6X4)
    indices = render("_games.pxi.in", games)
    assert "    NUM_GAMES = 8\n" in indices
    assert "    GAME_KATRO_6X4 = 7\n" in indices
    forms = render("_forms.pxi.in", games)
    assert c_array(forms, "katra_shape_family")[7] == _games.FAMILIES.index(_games.KATRO)
    assert c_array(forms, "katra_shape_rows")[7] == 6
    assert c_array(forms, "katra_shape_cols")[7] == 4
    assert c_array(forms, "katra_shape_simplified")[7] == 0
    assert c_array(forms, "katra_game_form") == [1, 2, 3, 4, 5, 6, 7, 8]
    assert "ctypedef struct Katro6x4Node:\n    HalvesNode halves\n    int to_move\n" in forms
    fused = forms.split("ctypedef fused Node:\n")[1].split("\n\n")[0].split()
    assert fused == ["IntPosition", "KatroNode", "Katro4x6Node", "Katro4x4Node",
                     "KatraMpantsakaNode", "KatraMpantsakaSimplifiedNode", "GoreNode",
                     "DjenonNode", "Katro6x4Node", "VariantHalvesNode", "Halves16Node"]
    assert "    NODE_KATRO_6X4 = 8\n" in forms
    assert "    NODE_VARIANT_HALVES = 9\n" in forms        # the run-time shapes stay the last two
    assert "    NODE_HALVES16 = 10\n" in forms
    assert "    Katro6x4Node katro_6x4\n" in forms
    assert "    elif Node is Katro6x4Node:\n        return GAME_KATRO_6X4\n" in forms
    assert "'katro-6x4', )" in forms


def test_every_dispatcher_switches_on_the_new_kind() -> None:
    """Each switch of _dispatch.pxi.in (if, elif ..., else: one branch a form
    of its list) gets one more branch, the new form's: the full lists
    (FORMS), the lanes' (LANE_FORMS) and the halves' (HALVES_FORMS) alike,
    for a Katro size."""
    before = render("_dispatch.pxi.in", table_with())
    after = render("_dispatch.pxi.in", table_with(KATRO_6X4))

    def branches(text: str) -> tuple[int, int, int]:
        return (len(re.findall(r"^ +if form == NODE_\w+:$", text, re.M)),
                len(re.findall(r"^ +elif form == NODE_\w+:$", text, re.M)),
                len(re.findall(r"^ +else:$", text, re.M)))

    first, middle, last = branches(before)
    assert last >= 10        # (two hand-written tests of NODE_INT start with "if" too)
    assert branches(after) == (first, middle + last, last)
    assert after.count("form == NODE_KATRO_4X6:") == before.count("form == NODE_KATRO_4X6:")
    for member in ("katro_4x6", "katro_6x4"):      # every switch names both
        assert after.count(f"&box.{member}") == after.count("&box.katro_4x4")
    assert "node_legal_actions(&box.katro_6x4, acts, &scratch.katro_6x4)" in after
    assert "return capi_do(<const Katro6x4Node*>d, op, arg, acts, kids, out)" in after


def test_a_second_djenon_size_gets_no_lanes_kind() -> None:
    """Djenon-aboure's lanes are written for its board: another size gets a
    game index and a shape, no lanes form (NODE_INT)."""
    games = table_with(DJENON_2X8)
    assert "    GAME_DJENON_2X8 = 7\n" in render("_games.pxi.in", games)
    forms = render("_forms.pxi.in", games)
    assert c_array(forms, "katra_game_form")[7] == 0
    assert c_array(forms, "katra_shape_cols")[7] == 8
    assert "NODE_DJENON_2X8" not in forms
    assert forms.count("    DjenonNode\n") == 1
    names = templates.core_games(games)
    assert names[7].form == "NODE_INT" and names[7].node == ""


@pytest.mark.slow
def test_a_new_size_builds_and_plays(tmp_path: Path) -> None:
    """tools/check_new_size.py: a scratch copy with one more row builds, and
    its new game agrees with the reference (several minutes: a build).  It needs
    a C compiler, Cython and setuptools: where they are missing it fails, unless
    KATRA_CYTHON_API_TESTED_ELSEWHERE=1 says another run builds (.ci/run runs it
    beside the C API's tests)."""
    missing = build_tools_missing()
    if missing and os.environ.get("KATRA_CYTHON_API_TESTED_ELSEWHERE"):
        pytest.skip(f"this environment lacks {missing}; KATRA_CYTHON_API_TESTED_ELSEWHERE "
                    "says another run builds")
    assert missing is None, f"building the scratch copy needs {missing}"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "check_new_size.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    for game in ("katro-6x4", "gore-2x3", "djenon-aboure-2x5"):
        assert f"{game}: perft 1..5" in done.stdout
