"""``katra match``: games between engines, refereed by katra (docs/match.md).

Exit status: 0 the match was played (or the conformance check passed), 1 the
conformance check found failures, 2 bad input (including an engine that
cannot start or play the game, a suite file that does not parse, a results
file of another match), 130 interrupted (the standings so far are printed).
"""
from __future__ import annotations

import argparse
import json
import math
import re
from typing import Any

from .common import (
    CommandFailed,
    UsageError,
    add_variant_options,
    positive_int_arg,
    search_depth_arg,
    search_nodes_arg,
    seconds_arg,
    seed_arg,
)

#: Games per pairing when --games is not given.
DEFAULT_GAMES = 100
SPRT_KEYS = {"elo0": float, "elo1": float, "alpha": float, "beta": float, "model": str}
SPRT_MODELS = ("normalized", "logistic", "bayesian")
_TC = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)(?:\+(\d+(?:\.\d*)?|\.\d+))?$")


def tc_arg(text: str) -> tuple[float, float]:
    """``--tc SECONDS[+INCREMENT]``."""
    found = _TC.match(text.strip())
    if found is None or float(found.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"expected SECONDS or SECONDS+INCREMENT (such as "
                                         f"10+0.1), got {text!r}")
    return float(found.group(1)), float(found.group(2) or 0)


def sprt_arg(text: str) -> dict[str, Any]:
    """``--sprt elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=normalized]``."""
    values: dict[str, Any] = {"alpha": 0.05, "beta": 0.05, "model": "normalized"}
    for item in text.split(","):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or key not in SPRT_KEYS:
            raise argparse.ArgumentTypeError(f"expected KEY=VALUE with KEY one of "
                                             f"{', '.join(SPRT_KEYS)}, got {item!r}")
        try:
            values[key] = SPRT_KEYS[key](value.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{key} needs a number, got {value!r}") from None
    if "elo0" not in values or "elo1" not in values:
        raise argparse.ArgumentTypeError("--sprt needs elo0= and elo1=")
    if values["model"] not in SPRT_MODELS:
        raise argparse.ArgumentTypeError(f"model must be one of {', '.join(SPRT_MODELS)}, "
                                         f"got {values['model']!r}")
    if not values["elo0"] < values["elo1"]:
        raise argparse.ArgumentTypeError("--sprt needs elo0 < elo1")
    for key in ("alpha", "beta"):
        if not 0 < values[key] < 0.5:
            raise argparse.ArgumentTypeError(f"{key} must be between 0 and 0.5")
    return values


def rating_prior_arg(text: str) -> float:
    """``--rating-prior DRAWS``: katra.stats.ladder's prior."""
    from katra.stats import MAX_LADDER_PRIOR
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of draws, got {text!r}") from None
    if not 0 <= value <= MAX_LADDER_PRIOR:
        raise argparse.ArgumentTypeError(f"expected 0 to {MAX_LADDER_PRIOR:g} draws, got {text!r}")
    return value


def register(commands: Any) -> None:
    """Add ``match`` to the subcommands of the ``katra`` parser."""
    from katra.api import DEFAULT_MAX_PLIES
    from katra.match import (
        DEFAULT_ADJUDICATION_NODES,
        DEFAULT_HANDSHAKE_TIMEOUT,
        DEFAULT_MOVE_TIMEOUT,
        DEFAULT_TIME_MARGIN,
        TOURNAMENTS,
    )

    from .counting import max_plies_arg, scheduler_arg

    match = commands.add_parser(
        "match", help="play engines against each other, refereed by katra (docs/match.md)")
    match.add_argument("game", nargs="?", metavar="GAME", help="the game id")
    match.add_argument(
        "--engine", action="append", nargs="+", default=[], metavar="ENGINE",
        help="an engine: a command line (one argument) or katra:SPEC (a built-in player), "
             "then optionally name=NAME and option.NAME=VALUE words; give it twice or more")
    match.add_argument("--tournament", choices=TOURNAMENTS,
                       help="more than two engines: the first against each other (gauntlet) "
                            "or every two (roundrobin)")
    match.add_argument("--games", type=positive_int_arg, metavar="N",
                       help=f"games per pairing, in pairs of an opening with colours swapped "
                            f"(default {DEFAULT_GAMES})")
    limits = match.add_argument_group("limits per move")
    clock = limits.add_mutually_exclusive_group()
    clock.add_argument("--tc", type=tc_arg, metavar="SECONDS[+INC]",
                       help="a clock per player per game, plus an increment per move")
    clock.add_argument("--movetime", type=seconds_arg, metavar="SECONDS",
                       help="a fixed time per move")
    limits.add_argument("--nodes", type=search_nodes_arg, metavar="N",
                        help="a node budget per move, passed in go")
    limits.add_argument("--depth", type=search_depth_arg, metavar="D",
                        help="a depth per move, passed in go")
    limits.add_argument("--timemargin", type=seconds_arg, default=DEFAULT_TIME_MARGIN,
                        metavar="SECONDS", help=f"seconds past the clock allowed before a "
                        f"time forfeit (default {DEFAULT_TIME_MARGIN:g})")
    limits.add_argument("--timeout", type=seconds_arg, default=DEFAULT_MOVE_TIMEOUT,
                        metavar="SECONDS", help=f"with no clock: seconds a move may take "
                        f"(default {DEFAULT_MOVE_TIMEOUT:g})")
    limits.add_argument("--handshake-timeout", type=seconds_arg,
                        default=DEFAULT_HANDSHAKE_TIMEOUT, metavar="SECONDS",
                        help=f"seconds an engine has to start and answer its handshake "
                             f"(default {DEFAULT_HANDSHAKE_TIMEOUT:g})")
    match.add_argument("--max-plies", type=max_plies_arg, default=DEFAULT_MAX_PLIES,
                       metavar="P", help=f"ply limit per game: the game is then unfinished "
                       f"(default {DEFAULT_MAX_PLIES})")
    match.add_argument("--adjudicate", choices=("proven",),
                       help="end a game as soon as a small proof search settles its result")
    match.add_argument("--adjudicate-nodes", type=search_nodes_arg,
                       default=DEFAULT_ADJUDICATION_NODES, metavar="N",
                       help=f"--adjudicate proven: node budget per ply (default "
                            f"{DEFAULT_ADJUDICATION_NODES})")
    match.add_argument("--tables", metavar="FILE",
                       help="--adjudicate proven: Djenon-aboure's endgame tables to read "
                            "(docs/tables.md)")
    match.add_argument("--openings", metavar="FILE",
                       help="the opening suite (default: katra's suite for the game)")
    match.add_argument("--openings-order", choices=("sequential", "random"),
                       default="sequential", help="the suite's order (default sequential)")
    match.add_argument("--seed", type=seed_arg, default=0,
                       help="seed of --openings-order random (default 0)")
    match.add_argument("--concurrency", type=positive_int_arg, metavar="K",
                       help="games played at once (default: one per core)")
    match.add_argument("--scheduler", type=scheduler_arg, metavar="ADDRESS",
                       help="play the games on a dask cluster (tcp://host:8786, or 'local')")
    match.add_argument("--results", metavar="FILE",
                       help="append every game to FILE (JSON lines; a header names the match)")
    match.add_argument("--resume", action="store_true",
                       help="continue the match of --results FILE: skip its games played")
    match.add_argument("--records", metavar="FILE",
                       help="append every game's record to FILE (katra replay reads it)")
    match.add_argument("--sprt", type=sprt_arg, metavar="elo0=A,elo1=B[,...]",
                       help="stop when the test decides (alpha, beta 0.05 and model "
                            "normalized by default)")
    match.add_argument("--check", metavar="COMMAND",
                       help="check that an engine follows the protocol (GAME optional: "
                            "every game it lists)")
    match.add_argument("--rating-prior", type=rating_prior_arg, default=0.0, metavar="DRAWS",
                       help="a tournament's ratings: virtual draws added to every pairing "
                            "(default 0: maximum likelihood, no rating when one is unbounded)")
    match.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_options(match)
    match.set_defaults(
        variant_of="game", variant_command="katra match", run=cmd_match)


def engine_spec(words: list[str]) -> Any:
    """One ``--engine COMMAND [name=NAME] [option.NAME=VALUE ...]``."""
    from katra.match import EngineSpec
    command, *settings = words
    name = None
    options: list[tuple[str, str]] = []
    for word in settings:
        key, equals, value = word.partition("=")
        if equals and key == "name" and value:
            name = value
        elif equals and key.startswith("option.") and len(key) > len("option."):
            options.append((key[len("option."):], value))
        else:
            raise UsageError(f"katra match: --engine {command!r}: expected name=NAME or "
                             f"option.NAME=VALUE, got {word!r}")
    return EngineSpec(command, name, tuple(options))


def cmd_match(args: argparse.Namespace) -> None:
    if args.check is not None:
        cmd_check(args)
        return
    config = build_config(args)
    _play(args, config)


def build_config(args: argparse.Namespace) -> Any:
    from katra._errors import KatraError
    from katra.api import game
    from katra.match import MatchConfig, TimeControl, check_config, load_suite

    if args.game is None:
        raise UsageError("katra match: GAME is required (or --check COMMAND)")
    game_id = game(args.game).id
    engines = tuple(engine_spec(words) for words in args.engine)
    if args.resume and args.results is None:
        raise UsageError("katra match: --resume needs --results FILE")
    if args.scheduler is not None and args.concurrency is not None:
        raise UsageError("katra match: --concurrency goes without --scheduler (the cluster "
                         "has its own workers)")
    base, increment = args.tc if args.tc is not None else (None, 0.0)
    control = TimeControl(base, increment, args.movetime, args.nodes, args.depth,
                          args.timemargin, args.timeout)
    try:
        openings = load_suite(args.openings, game_id)
    except KatraError as exc:
        raise UsageError(f"katra match: {exc}") from None
    config = MatchConfig(
        game_id, engines, args.games or DEFAULT_GAMES, control, args.max_plies,
        tuple(openings), args.openings or f"katra:{game_id}", args.openings_order, args.seed,
        args.tournament, args.adjudicate_nodes if args.adjudicate else None, args.sprt,
        args.handshake_timeout, args.tables)
    try:
        check_config(config)
    except KatraError as exc:
        raise UsageError(f"katra match: {exc}") from None
    return config


def _play(args: argparse.Namespace, config: Any) -> None:
    from contextlib import nullcontext

    from katra._errors import KatraError
    from katra._limits import usable_cores
    from katra.match import ResultsFile, run_match

    from .counting import dask_client
    from .term import progress, stderr_is_tty

    results = None
    if args.results is not None:
        try:
            results = ResultsFile(args.results, config.header(), args.resume)
        except KatraError as exc:
            raise UsageError(f"katra match: {exc}") from None
    concurrency = args.concurrency or usable_cores()
    cluster = nullcontext(None) if args.scheduler is None else dask_client(args.scheduler,
                                                                           None)
    total = len(config.tasks())
    with cluster as client, progress("match", total, "games", "{task.fields[status]}",
                                     status="") as bar:
        def on_game(run: Any) -> None:
            bar.update(completed=run.standings.games, status=_status_line(run))

        try:
            run = run_match(config, results, args.records, concurrency, client,
                            on_game if stderr_is_tty() else None)
        except KatraError as exc:
            raise UsageError(f"katra match: {exc}") from None
    report = match_report(run, args.rating_prior)
    if args.json:
        print(json.dumps(_finite(report), allow_nan=False))
    else:
        print("\n".join(report_lines(report)))
    if run.interrupted:
        raise KeyboardInterrupt


def _status_line(run: Any) -> str:
    standing = run.standings.by_pairing[0]
    words = [f"{standing.score:g}-{standing.games - standing.unfinished - standing.score:g}"]
    if len(run.config.engines) == 2:
        stats = standing.statistics(run.config.sprt)
        if stats["elo"] is not None:
            words.append(f"Elo {stats['elo']:+.1f} ± {stats['elo_error95']:.1f}")
        if stats["sprt"] is not None:
            words.append(f"LLR {stats['sprt']['llr']:.2f}")
    return "  ".join(words)


def match_report(run: Any, rating_prior: float = 0.0) -> dict[str, Any]:
    """The final standings as one JSON-ready object (a tournament's ratings with
    ``rating_prior`` virtual draws a pairing: katra.stats.ladder)."""
    config = run.config
    pairings = []
    for standing in run.standings.by_pairing:
        pairings.append({
            "engines": [run.names[standing.first], run.names[standing.second]],
            "games": standing.games, "wins": standing.wins, "draws": standing.draws,
            "losses": standing.losses, "unfinished": standing.unfinished,
            "pentanomial": standing.pentanomial,
            "forfeits": {run.names[e]: dict(kinds) for e, kinds in standing.forfeits.items()},
            **standing.statistics(config.sprt)})
    scores = run.standings.engine_scores(len(config.engines))
    ratings = _ladder(run, rating_prior) if len(run.standings.pairings) > 1 else None
    return {"game": config.game_id, "engines": run.names, "planned": run.planned,
            "played": run.standings.games, "interrupted": run.interrupted,
            "stopped_by_sprt": run.stopped_by_sprt, "pairings": pairings, "ratings": ratings,
            "rating_prior": rating_prior,
            "scores": [{"engine": name, "points": points, "games": games}
                       for name, (points, games) in zip(run.names, scores)]}


def _finite(value: Any) -> Any:
    """``value`` with every infinite or NaN float (an Elo or interval of a one-sided
    score) as None: the JSON output is standard JSON."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def _ladder(run: Any, prior: float) -> dict[str, Any] | None:
    """Every engine's Elo (katra.stats.ladder, the first engine at 0, ``prior`` virtual
    draws a pairing) from the finished games, or None when the names repeat or a rating
    is unbounded (someone won or lost every point, with no prior)."""
    from katra import stats
    from katra.match import game_points
    names = run.names
    if len(set(names)) != len(names):
        return None
    games = [(names[entry["south"]], names[entry["north"]], points)
             for entry in run.standings.entries
             if (points := game_points(entry, entry["south"])) is not None]
    try:
        ladder = stats.ladder(games, anchor=names[0], prior=prior)
    except ValueError:
        return None
    return {name: {"elo": elo, "error95": error} for name, (elo, error) in ladder.items()}


def report_lines(report: dict[str, Any]) -> list[str]:
    lines = []
    if report["interrupted"]:
        lines.append(f"Interrupted after {report['played']} of {report['planned']} games.")
    elif report["stopped_by_sprt"]:
        lines.append(f"Stopped by the SPRT after {report['played']} of "
                     f"{report['planned']} games.")
    for p in report["pairings"]:
        first, second = p["engines"]
        finished = p["games"] - p["unfinished"]
        score = p["wins"] + p["draws"] / 2
        lines += ["", f"{first} vs {second} ({report['game']})",
                  f"  games        {p['games']} ({finished} finished, {p['unfinished']} "
                  f"unfinished at the ply limit)",
                  f"  {first}: W {p['wins']}  D {p['draws']}  L {p['losses']}"
                  + (f"  (score {score:g}/{finished}, {100 * score / finished:.1f}%)"
                     if finished else ""),
                  f"  pairs        {' '.join(map(str, p['pentanomial']))}  (pairs scoring 0, "
                  f"1/2, 1, 3/2, 2 for {first})"]
        if p["elo"] is not None:
            lines.append(f"  Elo          {p['elo']:+.1f} ± {p['elo_error95']:.1f} (95%)")
            lines.append(f"  LOS          {100 * p['los']:.1f}%")
        if p["sprt"] is not None:
            verdict = {"H0": "H0 accepted", "H1": "H1 accepted", None: "undecided"}
            s = p["sprt"]
            lines.append(f"  SPRT         LLR {s['llr']:.2f} ({s['lower']:.2f}, "
                         f"{s['upper']:.2f}): {verdict[s['result']]}")
        for name, kinds in p["forfeits"].items():
            lines.append(f"  forfeits     {name}: " + ", ".join(
                f"{kind} {count}" for kind, count in sorted(kinds.items())))
    if len(report["pairings"]) > 1:
        lines += ["", "engine points (finished games)"]
        for row in sorted(report["scores"], key=lambda r: -r["points"]):
            lines.append(f"  {row['engine']}: {row['points']:g}/{row['games']}")
        if report["ratings"] is not None:
            prior = report["rating_prior"]
            lines += ["", f"ratings (Elo, {report['engines'][0]} at 0, ± 95%"
                      + (f"; {prior:g} virtual draw{'' if prior == 1 else 's'} a pairing)"
                         if prior else ")")]
            for name, rating in report["ratings"].items():
                lines.append(f"  {name}: {rating['elo']:+.1f} ± {rating['error95']:.1f}")
    return lines[1:] if lines and lines[0] == "" else lines


def cmd_check(args: argparse.Namespace) -> None:
    """``katra match --check COMMAND [GAME]``: status 1 if a check fails."""
    from katra._errors import KatraError
    from katra.api import game
    from katra.match import check_engine, check_report_lines

    given = [option for option, value in (("--engine", args.engine), ("--results", args.results),
                                          ("--records", args.records),
                                          ("--scheduler", args.scheduler)) if value]
    if given:
        raise UsageError(f"katra match: --check takes no {given[0]}")
    game_id = game(args.game).id if args.game is not None else None
    try:
        report = check_engine(args.check, game_id, args.handshake_timeout, args.timemargin,
                              args.seed)
    except KatraError as exc:
        raise UsageError(f"katra match: {exc}") from None
    if args.json:
        print(json.dumps({"command": report.command, "name": report.name,
                          "games": list(report.games), "passed": report.passed,
                          "checks": [{"name": i.name, "passed": i.passed, "detail": i.detail}
                                     for i in report.items]}))
    else:
        print("\n".join(check_report_lines(report)))
    if not report.passed:
        failed = sum(not item.passed for item in report.items)
        raise CommandFailed(f"katra match --check: {failed} check(s) failed")
