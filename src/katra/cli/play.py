"""``katra play`` (a game against the engine) and ``katra replay`` (a saved record).

``play`` reads commands line by line (a terminal gets line editing through
readline; piped input works too): a move text, ``undo``, ``hint``, ``board``,
``help`` or ``quit`` (end of input quits as well).  A malformed or illegal
move prints one line and asks again.  The record file, if asked for, is
written when the game starts and after every ply, so it is complete whenever
the game stops.

``replay`` steps through a record interactively when stdin and stdout are
terminals, and otherwise prints every position of the game in turn.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from katra._display import PLAYERS
from katra._errors import IllegalMoveError, KatraError
from katra._text import plural

from .board import board
from .term import PLAYER_STYLES, out, spinner

#: The engine's default thinking time per move, in seconds.
DEFAULT_TIME = 1.0

PLAY_HELP = """\
Type a move to play it, or one of these commands:
  undo   take back your last move (and the engine's replies to it)
  hint   ask the engine for a move for you
  board  draw the board again
  help   this text
  quit   stop the game (the record, if any, is kept)"""

MOVE_FORMS = {
    "katro": "A move is the square you sow from, e.g. a1",
    "mpantsaka": "A move is a square and a direction, + (counter-clockwise) or "
                 "- (clockwise), e.g. c2+",
    "djenon": "A move is the square you sow from, e.g. b1, or pass",
    "gore": "A move is a square you sow from (b1), an offer of 1 to 3 of your holes "
            "(offer:a1,c1), pass, or the answer to an offer: accept or decline",
}


def _command_error(prefix: str, message: str) -> Exception:
    from .common import UsageError
    return UsageError(f"{prefix}: {message}")


def _new_engine() -> Any:
    """A ``katra.Engine``: one per game, so each move's search reuses the table of
    the searches before it (docs/engine.md, "Keeping the table")."""
    from katra.api import Engine
    return Engine()


def _search_notes(result: Any) -> str:
    """``depth 4, score +3, 1,234 nodes, 0.01 s``; proven results read as wins or losses."""
    return (f"depth {result.depth}, {result.describe()}, {result.nodes:,} nodes, "
            f"{result.seconds:.2f} s")


#: ``hint`` first gives the solver this long (docs/solve.md) to prove the position.
HINT_SOLVE_SECONDS = 0.3


def _solve_briefly(state: Any) -> Any:
    """katra.solve's result if it proves the position within HINT_SOLVE_SECONDS, else None."""
    from katra._limits import MAX_SOLVE_PLIES
    from katra.api import solve
    result = solve(state, MAX_SOLVE_PLIES, time=HINT_SOLVE_SECONDS)   # exact distances
    return result if result.outcome is not None else None


def _proof_notes(result: Any) -> str:
    """``proven: wins in 17 plies, 46,684 nodes, 0.12 s``, from the side to move."""
    verb = {"win": "wins", "loss": "loses", "draw": "draws"}[result.outcome]
    return (f"proven: {verb} in {plural(result.plies, 'ply', 'plies')}, {result.nodes:,} nodes, "
            f"{result.seconds:.2f} s")


class _Game:
    """One game of ``katra play``: the state, who made each move, the record file."""

    def __init__(self, args: argparse.Namespace) -> None:
        from .common import load_state
        self.state = load_state(args.position)
        self.human: int = args.side
        self.engine = 1 - self.human
        # one limit: --depth, --time or --nodes (argparse refuses two), else the clock
        self.limits: dict[str, Any] = {"depth": args.depth, "time": args.time,
                                       "nodes": args.nodes}
        if all(value is None for value in self.limits.values()):
            self.limits["time"] = DEFAULT_TIME
        self.movers: list[int] = []
        self.record_path: str | None = args.record
        self.console = out()
        self.searcher = _new_engine()   # the engine's moves and the hints share its table
        if self.record_path is not None:
            self.save()  # a path that cannot be written fails here, before the game

    # -- output
    def say(self, text: str, style: str = "") -> None:
        from rich.text import Text
        self.console.print(Text(text, style=style))

    def draw(self, last: int | None = None, *, heading: bool = False) -> None:
        state = self.state
        self.console.print(board(state, last=last, heading=heading,
                                 legal=state.to_move == self.human))

    def save(self) -> None:
        if self.record_path is None:
            return
        from katra._files import write_file
        try:
            write_file(self.record_path, self.state.record())
        except OSError as exc:
            raise _command_error("katra play", f"cannot write the record file "
                                 f"{self.record_path!r}: {exc.strerror or exc}") from None

    # -- moves
    def push(self, action: int) -> None:
        self.movers.append(self.state.to_move)
        self.state.push(action)
        self.save()

    def think(self) -> Any:
        who = "You" if self.state.to_move == self.human else PLAYERS[self.engine]
        with spinner(f"{who}: the engine is thinking..."):
            return self.searcher.search(self.state, **self.limits)

    def engine_move(self) -> None:
        result = self.think()
        self.push(result.best_action)
        self.say(f"{PLAYERS[self.engine]} plays {result.best_move}   ({_search_notes(result)})",
                 PLAYER_STYLES[self.engine])
        self.draw(last=result.best_action)

    def human_move(self, text: str) -> None:
        state = self.state
        legal = " ".join(state.legal_moves)
        try:
            action = state.game.parse_action(text)
        except IllegalMoveError as exc:
            self.say(f"Not a move: {exc}. Legal moves: {legal} (or type help).", "red")
            return
        if not state.is_legal(action):
            self.say(f"{text} is not legal here. Legal moves: {legal}.", "red")
            return
        self.push(action)
        self.draw(last=action)

    def undo(self) -> None:
        if self.human not in self.movers:
            self.say("Nothing to undo: you have not moved yet.", "red")
            return
        taken = []
        while True:
            mover = self.movers.pop()
            taken.append(f"{PLAYERS[mover]} {self.state.action_text(self.state.pop())}")
            if mover == self.human and self.state.to_move == self.human:
                break
        self.save()
        self.say(f"Took back: {', '.join(reversed(taken))}.")
        self.draw(last=self.state.peek() if self.state.move_stack else None)

    def hint(self) -> None:
        proven = _solve_briefly(self.state)
        if proven is None or self.limits["nodes"] is not None:
            # With a node budget the engine searches even when the solver proved the
            # position: the depth such a search reaches depends on what the shared
            # table holds, and whether the solver's timed try succeeded must not
            # change the table, or the engine's later moves would vary by machine.
            result = self.think()
        if proven is not None:   # the solver's perfect move, with its distance
            line = " ".join(self.state.action_text(a) for a in proven.pv)
            self.say(f"Hint: {proven.best_move}   ({_proof_notes(proven)}; line: {line})")
            return
        line = " ".join(self.state.action_text(a) for a in result.pv)
        self.say(f"Hint: {result.best_move}   ({_search_notes(result)}; line: {line})")

    # -- the game
    def run(self) -> None:
        state = self.state
        if self.limits["depth"] is not None:
            strength = f"depth {self.limits['depth']}"
        elif self.limits["nodes"] is not None:
            strength = f"{self.limits['nodes']:,} nodes a move"
        else:
            strength = f"{self.limits['time']:g} s a move"
        self.say(f"{state.game.name}: you play {PLAYERS[self.human]}, the engine plays "
                 f"{PLAYERS[self.engine]} ({strength}).")
        self.say(f"{MOVE_FORMS[state.game.spec.family]}; type help for the commands.")
        self.draw(heading=True)
        echo = not sys.stdin.isatty()
        if not echo:
            try:
                import readline  # noqa: F401  (line editing and history for input())
            except ImportError:
                pass
        while True:
            outcome = state.outcome()
            if outcome is not None:
                self.finish(outcome)
                return
            if state.to_move == self.engine:
                self.engine_move()
                continue
            try:
                line = input(f"{PLAYERS[self.human]}> ")
            except EOFError:
                print()
                self.quit()
                return
            if echo:  # piped input: show it, so that the transcript reads like a session
                print(line)
            command = line.strip().lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                self.quit()
                return
            if command in ("help", "?"):
                self.say(PLAY_HELP)
                self.say(f"{MOVE_FORMS[state.game.spec.family]}. Legal moves now: "
                         f"{' '.join(state.legal_moves)}")
            elif command == "undo":
                self.undo()
            elif command == "hint":
                self.hint()
            elif command == "board":
                self.draw(last=state.peek() if state.move_stack else None)
            else:
                self.human_move(line.strip())  # read as push() reads it: case ignored

    def _record_note(self) -> str:
        return f" The record is in {self.record_path}." if self.record_path else ""

    def finish(self, outcome: Any) -> None:
        if outcome.winner is None:
            verdict = "A draw."
        elif outcome.winner == self.human:
            verdict = "You won!"
        else:
            verdict = "The engine won."
        self.say(f"{verdict}{self._record_note()}", "bold")

    def quit(self) -> None:
        self.say(f"You stopped the game after {plural(len(self.movers), 'ply', 'plies')}; "
                 "it is unfinished."
                 f"{self._record_note()}")


def play(args: argparse.Namespace) -> None:
    _Game(args).run()


# ---------------------------------------------------------------- replay

REPLAY_HELP = ("Enter or n: next ply, b: back, a number: go to that ply, s: start, e: end, "
               "q: quit")


def _read_record_file(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise _command_error("katra replay", f"cannot read {path!r}: "
                             f"{exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise _command_error("katra replay", f"{path!r} is not a text file") from None


def replay(args: argparse.Namespace) -> None:
    from katra.api import read_records

    text = _read_record_file(args.file)
    try:
        records = read_records(text)
    except KatraError as exc:
        raise _command_error("katra replay", f"{args.file}: {exc}") from None
    if not records:
        raise _command_error("katra replay", f"{args.file}: no game record in the file")
    if args.game > len(records):
        raise _command_error("katra replay", f"{args.file} holds {len(records)} game "
                             f"record(s), there is no game {args.game}")
    final = records[args.game - 1]
    from katra.api import read_record_tags
    tags = read_record_tags(text)[args.game - 1]
    if args.html is not None:  # katra replay FILE --html OUT.html (docs/explain.md)
        if args.ply is not None:
            raise _command_error("katra replay", "--html writes the whole game; "
                                 "it takes no --ply")
        from .common import write_text_file
        from .replay_page import replay_page
        write_text_file(args.html, replay_page(final), "katra replay")
        return
    moves = final.move_stack
    states = [final.root()]
    for action in moves:
        states.append(states[-1].child(action))
    console = out()

    def show(ply: int) -> None:
        from rich.text import Text
        state = states[ply]
        if ply == 0:
            head = Text(f"Start of game {args.game} ({plural(len(moves), 'ply', 'plies')})",
                        style="bold")
        else:
            mover = states[ply - 1].to_move
            head = Text(f"Ply {ply}/{len(moves)}: {PLAYERS[mover]} plays "
                        f"{state.action_text(moves[ply - 1])}", style=PLAYER_STYLES[mover])
        console.print(head)
        console.print(board(state, last=moves[ply - 1] if ply else None, heading=ply == 0,
                            legal=False))
        if ply == 0 and tags:  # a refereed game's players (katra match, docs/match.md)
            console.print(Text(f"South: {tags.get('south', '?')}    "
                               f"North: {tags.get('north', '?')}"
                               + (f"    ({tags['event']})" if "event" in tags else "")))
        if ply == len(moves) and state.outcome() is None and "decision" not in tags:
            console.print(Text("End of the record: the game was not finished (result *)."))
        if ply == len(moves) and "decision" in tags:
            console.print(Text(f"Decision: {tags['decision']}"
                               + (f" ({tags['reason']})" if "reason" in tags else "")))

    if args.ply is not None:
        if args.ply > len(moves):
            raise _command_error("katra replay", f"--ply {args.ply}: game {args.game} has "
                                 f"only {plural(len(moves), 'ply', 'plies')}")
        show(args.ply)
        return
    if args.file == "-" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        for ply in range(len(moves) + 1):
            if ply:
                console.print()
            show(ply)
        return
    _step(show, len(moves), console)


def _step(show: Callable[[int], None], last: int, console: Any) -> None:
    """Interactive stepping through plies ``0..last``."""
    from rich.text import Text
    try:
        import readline  # noqa: F401
    except ImportError:
        pass
    console.print(Text(REPLAY_HELP, style="dim"))
    ply = 0
    show(ply)
    while True:
        try:
            command = input(f"replay {ply}/{last}> ").strip().lower()
        except EOFError:
            print()
            return
        target = ply
        if command in ("", "n", "next"):
            target = ply + 1
        elif command in ("b", "back", "p"):
            target = ply - 1
        elif command in ("s", "start"):
            target = 0
        elif command in ("e", "end"):
            target = last
        elif command in ("q", "quit", "exit"):
            return
        elif command.isdigit():
            target = int(command)
        else:
            console.print(Text(f"Unknown command {command!r}. {REPLAY_HELP}", style="red"))
            continue
        if not 0 <= target <= last:
            console.print(Text("That is past the end of the game." if target > last
                               else "That is before the start.", style="red"))
            continue
        ply = target
        show(ply)
