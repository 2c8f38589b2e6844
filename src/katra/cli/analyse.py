"""``katra analyse``: every legal move of a position with its score, best first (docs/cli.md)."""
from __future__ import annotations

import argparse
import json
from typing import Any

from .common import UsageError, add_variant_options, search_depth_arg, search_nodes_arg, seconds_arg

#: The clock when no limit is given, as ``katra play``'s engine.
DEFAULT_TIME = 1.0


def register(commands: Any) -> None:
    """Add ``analyse`` to the subcommands of the ``katra`` parser."""
    analyse = commands.add_parser("analyse", help="score every legal move of a position "
                                  "(docs/engine.md)")
    analyse.add_argument("position", metavar="GAME_OR_POSITION",
                         help="a game id (start position) or a position text")
    analyse.add_argument("--depth", type=search_depth_arg, metavar="N",
                         help="search N plies deep (1..64)")
    analyse.add_argument("--time", type=seconds_arg, metavar="SECONDS",
                         help=f"stop after this long (default {DEFAULT_TIME:g} s when no "
                         "limit is given)")
    analyse.add_argument("--nodes", type=search_nodes_arg, metavar="N",
                         help="stop after N nodes (the last completed depth)")
    analyse.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_options(analyse)
    analyse.set_defaults(
        variant_of="position", variant_command="katra analyse", run=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> None:
    from katra._games import game_by_id
    from katra._text import action_text
    from katra.api import analyse, load_position

    pos = load_position(args.position, "core")
    if pos.is_terminal():
        raise UsageError(f"katra analyse: the game is already over: {pos.text()}")
    limits = {"depth": args.depth, "time": args.time, "nodes": args.nodes}
    if all(value is None for value in limits.values()):
        limits["time"] = DEFAULT_TIME
    result = analyse(pos, **limits)
    spec = game_by_id(pos.game_id)
    if args.json:
        print(json.dumps({
            "position": pos.text(), "to_move": "SN"[pos.to_move], "depth": result.depth,
            "nodes": result.nodes, "seconds": round(result.seconds, 6),
            "moves": [{"move": m.move, "action": m.action, "score": m.score,
                       "result": "win" if m.is_win else "loss" if m.is_loss else None,
                       "plies": m.plies, "pv": [action_text(spec, a) for a in m.pv]}
                      for m in result]}))
        return
    width = max(len("move"), *(len(m.move) for m in result))
    values = [m.describe().removeprefix("score ") for m in result]
    value_width = max(len("score"), *(len(v) for v in values))
    lines = [f"position {pos.text()}",
             f"depth    {result.depth}   ({result.nodes:,} nodes, {result.seconds:.3f} s)",
             f"{'move':<{width}}  {'score':<{value_width}}  line"]
    for m, value in zip(result, values):
        line = " ".join(action_text(spec, a) for a in m.pv)
        lines.append(f"{m.move:<{width}}  {value:<{value_width}}  {line}")
    print("\n".join(lines))
