"""A test engine that follows the play protocol (docs/protocol.md) and plays at once.

Its move: legal move number ``(position hash + seed) % count`` of the position,
so two copies with different ``Seed`` options play different games, and every
game is the same on any machine; given ``go nodes N`` (or its ``Nodes`` option),
katra.search's best move within N nodes instead (CPU-bound, still the same on
any machine).  Options: ``Seed``, ``Nodes``, ``Delay`` (milliseconds it waits
before every bestmove), all spin.  It plays every game id.

The misbehaving engines of this folder import :class:`Engine` and change one
thing (each file's docstring says what); ``python well_behaved.py`` runs it as is.
"""
from __future__ import annotations

import sys
import time

import katra


class Engine:
    name = "well-behaved"

    def __init__(self) -> None:
        self.seed = 0
        self.delay_ms = 0
        self.nodes = 0  # the Nodes option; go nodes N overrides it for one move
        self.state: katra.State | None = None
        self.last_position = ""
        self.pending_infinite = False
        self.moves_played = 0  # bestmoves sent since the process started

    # -- output
    def send(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    # -- the commands
    def handshake(self, words: list[str]) -> None:
        if words[1:] != ["1"]:
            self.send("error unsupported protocol version")
            return
        self.send(f"id name {self.name}")
        self.send("id author katra tests")
        self.send("games " + " ".join(katra.GAME_IDS))
        self.send("option name Seed type spin default 0 min 0 max 1000000")
        self.send("option name Delay type spin default 0 min 0 max 100000")
        self.send("option name Nodes type spin default 0 min 0 max 1000000000")
        self.send("protocolok 1")

    def setoption(self, words: list[str]) -> None:
        if len(words) != 5 or words[1] != "name" or words[3] != "value":
            self.send("error bad setoption")
        elif words[2] == "Seed":
            self.seed = int(words[4])
            self.send("ok")
        elif words[2] == "Delay":
            self.delay_ms = int(words[4])
            self.send("ok")
        elif words[2] == "Nodes":
            self.nodes = int(words[4])
            self.send("ok")
        else:
            self.send(f"error unknown option {words[2]}")

    def position(self, line: str) -> None:
        # The referee resends the whole game each move: only the new moves are played.
        if self.state is not None and line.startswith(self.last_position + " ") and (
                " moves " in line):
            new = line[len(self.last_position):].split()
            if new and new[0] == "moves":
                new = new[1:]
        else:
            text, _, moves = line[len("position "):].partition(" moves ")
            self.state = katra.State.from_text(text)
            new = moves.split()
        for move in new:
            self.state.push(move)
        self.last_position = line
        self.send("ok")

    def choose(self, nodes: int = 0) -> str:
        assert self.state is not None
        if nodes:
            return katra.search(self.state, nodes=nodes).best_move
        legal = self.state.legal_actions()
        return self.state.action_text(legal[(self.state.hash + self.seed) % len(legal)])

    def go(self, words: list[str]) -> None:
        if "infinite" in words:
            self.pending_infinite = True
            return
        if self.delay_ms:
            time.sleep(self.delay_ms / 1000)
        nodes = int(words[words.index("nodes") + 1]) if "nodes" in words else self.nodes
        self.bestmove(nodes)

    def bestmove(self, nodes: int = 0) -> None:
        move = self.choose(nodes)
        self.send("info depth 1 score value 0 nodes 1 pv " + move)
        self.send("bestmove " + move)
        self.moves_played += 1

    def stop(self) -> None:
        if self.pending_infinite:
            self.pending_infinite = False
            self.bestmove()

    def run(self) -> None:
        for raw in sys.stdin:
            line = " ".join(raw.split())
            words = line.split()
            if not words:
                continue
            command = words[0]
            if command == "protocol":
                self.handshake(words)
            elif command == "setoption":
                self.setoption(words)
            elif command == "isready":
                self.send("readyok")
            elif command == "newgame":
                self.state = None
                self.last_position = ""
                self.send("ok")
            elif command == "position":
                self.position(line)
            elif command == "go":
                self.go(words)
            elif command == "stop":
                self.stop()
            elif command == "quit":
                return
            else:
                self.send("error unknown command")


if __name__ == "__main__":
    Engine().run()
