"""``katra tables``: build and describe endgame table files (docs/tables.md)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .common import add_variant_options, int_arg


def register(commands: Any) -> None:
    """Add ``tables build`` and ``tables info`` to the subcommands of the ``katra`` parser."""
    from katra.api import MAX_TABLE_SEEDS

    tables = commands.add_parser("tables", help="endgame tables of Djenon-aboure (docs/tables.md)")
    actions = tables.add_subparsers(dest="tables_command", metavar="ACTION",
                                    parser_class=type(tables))
    actions.required = True
    build = actions.add_parser("build", help="value every board of at most K seeds and "
                               "write the tables to FILE")
    build.add_argument("game", metavar="GAME", help="the game (djenon-aboure)")
    build.add_argument("--max-seeds", type=int_arg("--max-seeds", 0, MAX_TABLE_SEEDS),
                       required=True, metavar="K",
                       help=f"the largest layer of board seeds (0..{MAX_TABLE_SEEDS})")
    build.add_argument("--out", required=True, metavar="FILE", help="the table file to write")
    build.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_options(build)
    build.set_defaults(
        variant_of="game", variant_command="katra tables build", run=cmd_tables_build)
    info = actions.add_parser("info", help="describe a table file (checked)")
    info.add_argument("file", metavar="FILE")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(run=cmd_tables_info)


def _report(args: argparse.Namespace, info: Any, path: str, built: bool) -> None:
    record = {"file": path, "game": info.game, "max_seeds": info.max_seeds, "bytes": info.bytes,
              "layers": [{k: v for k, v in vars(layer).items() if v is not None}
                         for layer in info.layers]}
    if args.json:
        print(json.dumps(record))
        return
    lines = [f"file       {path}", f"game       {info.game}",
             f"max seeds  {info.max_seeds}",
             f"boards     {sum(layer.boards for layer in info.layers):,}",
             f"bytes      {info.bytes:,}"]
    for layer in info.layers:
        line = f"layer {layer.seeds:2d}   {layer.boards:>10,} boards {layer.bytes:>10,} bytes"
        if built:
            line += f" {layer.sweeps:>5} sweeps {layer.seconds:8.2f} s"
        lines.append(line)
    print("\n".join(lines))


def cmd_tables_build(args: argparse.Namespace) -> None:
    from katra.api import build_tables

    from .term import stderr_is_tty

    def progress(layer: Any) -> None:
        print(f"\rlayer {layer.seeds}: {layer.boards:,} boards, {layer.sweeps} sweeps, "
              f"{layer.seconds:.1f} s", end="", file=sys.stderr, flush=True)

    info = build_tables(args.game, args.max_seeds, args.out,
                        progress=progress if stderr_is_tty() else None)
    if stderr_is_tty():
        print(file=sys.stderr)
    _report(args, info, args.out, True)


def cmd_tables_info(args: argparse.Namespace) -> None:
    from katra.api import tables_info

    _report(args, tables_info(args.file), args.file, False)
