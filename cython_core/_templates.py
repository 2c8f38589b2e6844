"""The core's generated files, from the one game table (src/katra/_games.py).

setup.py writes every cython_core/*.pxi.in (a Tempita template, Cython's copy)
out as its .pxi before cythonize reads the core, with the names below in the
template's namespace: each per-game and per-form list of the core (the game
indices, the shapes, the node forms, their types, the fused type Node, the
union NodeBox, the dispatchers' switch) is a loop over the table, so that a
new board size of an existing family is one row in the table.

Names a game's row gives the core (``symbol`` is the id in capitals, '-' as
'_'): GAME_<symbol> its index, NODE_<symbol> the form of its node on the
lanes, <Camel id>Node the node type of a Katro or Katra Mpantsaka size (each
its own type, so that every job's specialisation has the shape's constants
folded in).  Djenon-aboure's and Goré's lanes (DjenonNode, GoreNode) are
written for one board each: their family's first row; a further size of those
families gets no lanes form (NODE_INT).

This file reads the table without importing katra (the build has no
compiled core yet) and is not installed; tests/test_core_templates.py renders
the templates for a table with an extra row.
"""
from __future__ import annotations

import importlib.util
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from Cython import Tempita

CORE = Path(__file__).resolve().parent
PACKAGE = CORE.parent / "src" / "katra"
HEADER = "# Written by setup.py from {name}: edit that file, not this one.\n"

# The families whose lanes (_lanes.pxi's halves) are one layout for every size.
HALVES_FAMILIES = ("katro", "mpantsaka")


def load_games_module(package: Path = PACKAGE) -> types.ModuleType:
    """katra._games from package (a katra source folder), without running
    katra/__init__.py (which imports the compiled core)."""
    names = ("katra", "katra._games", "katra._errors")
    saved = {name: sys.modules.pop(name, None) for name in names}
    stub = types.ModuleType("katra")
    stub.__path__ = [str(package)]
    sys.modules["katra"] = stub
    try:
        spec = importlib.util.spec_from_file_location("katra._games", package / "_games.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["katra._games"] = module
        spec.loader.exec_module(module)
        return module
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous


@dataclass(frozen=True)
class CoreGame:
    """One row of the game table as the core names it."""

    index: int          # GAME_<symbol>
    id: str
    symbol: str
    family: int         # FAM_<family>: its index in katra._games.FAMILIES
    family_name: str
    rows: int
    cols: int
    simplified: bool
    form: str           # NODE_<symbol>, or NODE_INT: no lanes form (the int form only)
    node: str           # the node type of its lanes form ("" without one)
    member: str         # its NodeBox member ("" without one)
    halves: bool        # its lanes are _lanes.pxi's halves (Katro, Katra Mpantsaka)


#: The halves form of the variants (docs/rules.md §7) of Katro and Katra Mpantsaka whose
#: board fits the halves: its node carries its game index, its shape is read from the
#: game's tables at run time (one form for every such size, the last form).
VARIANT_FORM = ("NODE_VARIANT_HALVES", "VariantHalvesNode", "variant_halves")

#: The 16-bit halves (16-bit lanes, _lanes.pxi): the positions of more than 255 seeds of
#: every Katro and Katra Mpantsaka size with at most 12 holes a player, named or not; its
#: node carries its game index too (after the variants' form, the last form).
HALVES16_FORM = ("NODE_HALVES16", "Halves16Node", "halves16")

#: The forms whose node carries its game index and reads its shape at run time.
RUN_TIME_SHAPES = (VARIANT_FORM, HALVES16_FORM)


def member(spec: Any, symbol: str, lanes: bool, halves: bool) -> str:
    """The NodeBox member of a game's lanes node: the game's name on the
    halves, else its family's (Goré's and Djenon-aboure's one board)."""
    if not lanes:
        return ""
    return symbol.lower() if halves else str(spec.family)


def core_games(games: Any) -> list[CoreGame]:
    """The core's names for every row of games (a katra._games module, or any
    object with its GAMES and FAMILIES)."""
    out = []
    seen: set[str] = set()
    for index, spec in enumerate(games.GAMES.values()):
        symbol = spec.id.upper().replace("-", "_")
        halves = spec.family in HALVES_FAMILIES
        lanes = halves or spec.family not in seen      # Goré, Djenon-aboure: their first board
        seen.add(spec.family)
        if halves:
            node = "".join(part.capitalize() for part in spec.id.split("-")) + "Node"
        else:
            node = spec.family.capitalize() + "Node" if lanes else ""
        out.append(CoreGame(index, spec.id, symbol, games.FAMILIES.index(spec.family), spec.family,
                            spec.rows, spec.cols, spec.simplified,
                            "NODE_" + symbol if lanes else "NODE_INT", node,
                            member(spec, symbol, lanes, halves), halves))
    return out


def namespace(games: Any) -> dict[str, Any]:
    """What every template sees: GAMES (CoreGame per row), FAMILIES (the
    family names, FAM_ order), FORMS (form, node type, NodeBox member) for
    the int form and each lanes form (NODE_* is its index), LANE_FORMS (those
    of the lanes), HALVES_FORMS (those on the halves), VARIANT_FORM and
    HALVES16_FORM (the variants' halves and the 16-bit halves, the last two of each
    list), RUN_TIME_TYPES (their node types), GAME_FORMS (each game's form
    number) and ONE_BOARD (the games whose family's lanes are written for
    their board alone: Goré's, Djenon-aboure's)."""
    rows = core_games(games)
    lanes = [(g.form, g.node, g.member) for g in rows if g.node]
    forms = [("NODE_INT", "IntPosition", "int_pos"), *lanes, *RUN_TIME_SHAPES]
    numbers = {form: k for k, (form, _, _) in enumerate(forms)}
    return {"GAMES": rows, "FAMILIES": tuple(games.FAMILIES), "FORMS": forms,
            "LANE_FORMS": [*lanes, *RUN_TIME_SHAPES],
            "HALVES_FORMS": [*((g.form, g.node, g.member) for g in rows if g.halves),
                             *RUN_TIME_SHAPES],
            "VARIANT_FORM": VARIANT_FORM, "HALVES16_FORM": HALVES16_FORM,
            "RUN_TIME_TYPES": [node_type for _, node_type, _ in RUN_TIME_SHAPES],
            "GAME_FORMS": [numbers[g.form] for g in rows],
            "ONE_BOARD": [g for g in rows if g.node and not g.halves]}


def render(template: Path, games: Any) -> str:
    """The text setup.py writes for template (a .pxi.in) from games."""
    text = Tempita.sub(template.read_text(encoding="utf-8"), **namespace(games))
    return HEADER.format(name=template.name) + text


def write_templates(core: Path = CORE, package: Path = PACKAGE) -> None:
    """core/*.pxi.in -> *.pxi from the table in package; a file is rewritten
    only when its text changes, so that an unchanged one does not make Cython
    rebuild.  The written files are git-ignored and left out of the sdist,
    which carries the templates."""
    games = load_games_module(package)
    for template in sorted(core.glob("*.pxi.in")):
        target = template.with_suffix("")
        text = render(template, games)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
