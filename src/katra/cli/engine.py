"""``katra engine SPEC``: one built-in player served over the play protocol
(docs/protocol.md) on stdin and stdout.

The main thread reads the commands, one per line, and answers them; a ``go``
runs in a worker thread, so that ``stop``, ``isready`` and ``quit`` are
answered while it thinks.  Another command waits for the running go's
``bestmove`` (a go infinite ends only by stop: there it is refused with an
``error``); so does ``quit``, which stops a go infinite.  Every failure is an
``error ...`` reply, never a traceback; end of input is ``quit``.
"""
from __future__ import annotations

import argparse
import threading
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from katra.api import State
    from katra.match import BuiltinPlayer, GoLimits


def register(commands: Any) -> None:
    from katra.match import describe_players

    from .common import Parser
    parser: Parser = commands.add_parser(
        "engine", help="serve a built-in player over the play protocol (docs/protocol.md)",
        description="Serve one of katra's players on stdin/stdout by the play protocol\n"
                    "(docs/protocol.md); it answers katra diff --walk's line protocol too.",
        epilog="players, SPEC = NAME[:KEY=VALUE[,KEY=VALUE...]] (the keys are options too;\n"
               "a budget of 0 is none):\n" + describe_players(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", metavar="SPEC",
                        help="the player: random, greedy, alphabeta or mcts, with settings "
                             "as NAME:KEY=VALUE,... (alphabeta:depth=8, mcts:simulations=2000)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    import sys

    from katra.match import make_player
    player = make_player(args.spec)  # a bad spec: one line on stderr, status 2
    if hasattr(sys.stdin, "reconfigure"):  # bytes that are not UTF-8: an unknown command
        sys.stdin.reconfigure(errors="replace")
    try:
        EngineServer(player, sys.stdout).serve(sys.stdin)
    finally:
        player.close()


def one_line(exc: BaseException) -> str:
    """An exception as the text of an ``error`` reply."""
    text = str(exc) or type(exc).__name__
    return " ".join(text.split())


class EngineServer:
    """The protocol's engine side for one player: the position, the options,
    the search thread, and the output (one lock: a line is written whole)."""

    def __init__(self, player: BuiltinPlayer, output: IO[str]) -> None:
        self.player = player
        self.output = output
        self.lock = threading.Lock()
        self.state: State | None = None
        #: (text, moves) of the last position command, while self.state is its position
        self.position: tuple[str, tuple[str, ...]] | None = None
        self.stop = threading.Event()
        self.worker: threading.Thread | None = None
        self.infinite = False  # the running go is go infinite
        self.closed = False  # the reader of our output went away
        player.listener = lambda info: self.send(info.line())

    def send(self, line: str) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.output.write(line + "\n")
                self.output.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.closed = True

    def serve(self, lines: IO[str]) -> None:
        """Answer the commands of ``lines`` until ``quit`` or the end of input."""
        try:
            while not self.closed:
                line = lines.readline()
                if not line or line.split()[:1] == ["quit"]:
                    if self.worker is not None and not self.infinite:
                        self.worker.join()  # a go that ends by itself answers first
                    break
                if line.strip():
                    self.command(line)
        finally:
            self.stop.set()
            if self.worker is not None:
                self.worker.join()

    def searching(self) -> bool:
        return self.worker is not None and self.worker.is_alive()

    def command(self, line: str) -> None:
        from katra._errors import KatraError
        word = line.split()[0]
        if word == "stop":  # no reply: a running go answers bestmove now
            self.stop.set()
            return
        if word == "isready":
            self.send("readyok")
            return
        handler = self.HANDLERS.get(word)
        if handler is None:
            self.send(f"error unknown command {word!r}")
            return
        if self.searching():
            if self.infinite:  # only stop ends it: refuse, rather than wait for ever
                self.send(f"error {word}: a search is running (send stop first)")
                return
            assert self.worker is not None
            self.worker.join()  # a go that ends by itself: its answer comes first
        try:
            reply = handler(self, line)
        except KatraError as exc:
            reply = f"error {one_line(exc)}"
        except Exception as exc:  # not the input's fault: still one line, never a traceback
            reply = f"error {type(exc).__name__}: {one_line(exc)}"
        if reply is not None:
            self.send(reply)

    def current(self) -> State:
        from katra.match import ProtocolError
        if self.state is None:
            raise ProtocolError("no position yet (send position first)")
        return self.state

    def do_protocol(self, line: str) -> str | None:
        from katra.match import PLAYER_GAMES, PROTOCOL_VERSION, Handshake, parse_protocol
        if parse_protocol(line) != PROTOCOL_VERSION:
            return "error unsupported protocol version"
        handshake = Handshake(f"katra {self.player.name}", PLAYER_GAMES, "katra",
                              self.player.options())
        for reply in handshake.lines():
            self.send(reply)
        return None

    def do_setoption(self, line: str) -> str:
        from katra.match import parse_setoption
        self.player.set_option(*parse_setoption(line))
        return "ok"

    def do_newgame(self, line: str) -> str:
        self.player.new_game()
        return "ok"

    def do_position(self, line: str) -> str:
        """The position of ``line``; when it extends the last one (a referee sends the
        whole game before every move), only the new moves are played.  A bad move
        leaves the position as it was."""
        from katra.match import parse_position

        from .common import load_state
        text, moves = parse_position(line)
        known = self.position
        extends = (known is not None and self.state is not None and known[0] == text
                   and moves[:len(known[1])] == known[1])
        state: State = self.state if extends and self.state is not None else load_state(text)
        start = len(known[1]) if extends and known is not None else 0
        played = 0
        try:
            for move in moves[start:]:
                state.push(int(move) if move.isdigit() else move)
                played += 1
        except BaseException:
            if extends:
                for _ in range(played):
                    state.pop()
            raise
        self.state, self.position = state, (text, moves)
        return "ok"

    def do_play(self, line: str) -> str:
        words = line.split()
        if len(words) != 2:
            return "error expected 'play MOVE'"
        self.current().push(int(words[1]) if words[1].isdigit() else words[1])
        self.position = None  # the state is no longer the last position command's
        return "ok"

    def do_legal(self, line: str) -> str:
        state = self.current()
        return " ".join(state.action_text(a) for a in state.legal_actions())

    def do_text(self, line: str) -> str:
        return self.current().text()

    def do_go(self, line: str) -> None:
        from katra.match import GoLimits, ProtocolError
        limits = GoLimits.parse(line)
        state = self.current()
        if state.is_terminal():
            raise ProtocolError("go: the game is over in this position")
        self.stop = threading.Event()
        self.infinite = limits.infinite
        if self.player.INSTANT and not limits.infinite:  # no thread to start and wake
            self.think(state.copy(), limits, self.stop)
            return
        self.worker = threading.Thread(target=self.think, args=(state.copy(), limits, self.stop),
                                       name="katra engine search", daemon=True)
        self.worker.start()

    def think(self, state: State, limits: GoLimits, stop: threading.Event) -> None:
        try:
            choice = self.player.choose(state, limits, stop)
        except Exception as exc:
            self.send(f"error search failed: {one_line(exc)}")
            return
        from katra.match import bestmove_line
        self.send(bestmove_line(state.action_text(choice.action)))

    HANDLERS: ClassVar[dict[str, Callable[[EngineServer, str], str | None]]] = {
        "protocol": do_protocol, "setoption": do_setoption, "newgame": do_newgame,
        "position": do_position, "play": do_play, "legal": do_legal, "text": do_text,
        "go": do_go}
