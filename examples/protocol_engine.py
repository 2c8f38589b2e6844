"""A complete engine for katra's play protocol (docs/protocol.md): copy it and
replace ``choose`` with your own search.

It plays every game katra knows, one ply deep: the move after which the mover's
store is furthest ahead of the opponent's, ties broken at random (option
``seed``).  katra.State does the rules.  Try it:

    printf '%s\n' 'protocol 1' 'position katro' 'go stime 60000 ntime 60000' quit \
        | python examples/protocol_engine.py
    katra diff --walk "python examples/protocol_engine.py" katro   # the rules agree

One thread is enough: this engine answers ``go`` at once, except ``go infinite``,
whose move it keeps until ``stop``.  An engine that thinks longer reads
stdin in a second thread, so that it can see ``stop`` while it thinks.
"""
from __future__ import annotations

import random
import sys
import time

import katra
import katra.match


def send(line: str) -> None:
    print(line, flush=True)  # flush every line: katra waits for it


def store_lead(state: katra.State, player: int) -> int:
    return state.stores[player] - state.stores[1 - player]


def choose(state: katra.State, rng: random.Random, seconds: float) -> tuple[int, int]:
    """(action, lead): the legal move with the best store lead after it.  ``seconds``
    is this move's time; a deeper search would stop when it runs out."""
    deadline = time.monotonic() + seconds
    mover = state.to_move
    best: list[int] = []
    best_lead = -10**9
    for action in state.legal_actions():
        lead = store_lead(state.child(action), mover)
        if lead > best_lead:
            best, best_lead = [action], lead
        elif lead == best_lead:
            best.append(action)
        if time.monotonic() > deadline:
            break  # out of time: play the best found so far
    return rng.choice(best), best_lead


def move_seconds(words: list[str], mover: int) -> float:
    """This move's time from ``go``'s fields: ``movetime``, else a 30th of the
    mover's clock plus its increment (never more than half the clock), else 1 s."""
    fields = dict(zip(words[::2], words[1::2]))  # "infinite" has no value: never read here
    if "movetime" in fields:
        return int(fields["movetime"]) / 1000
    left, increment = ("stime", "sinc") if mover == 0 else ("ntime", "ninc")
    if left in fields:
        clock = int(fields[left])
        return min(clock / 30 + int(fields.get(increment, 0)), clock / 2) / 1000
    return 1.0


def main() -> None:
    state: katra.State | None = None
    rng = random.Random(0)
    pending: str | None = None  # the answer of a running "go infinite"
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                return
            if command == "stop":  # no reply of its own: ends a running go
                if pending is not None:
                    send(pending)
                    pending = None
            elif command == "isready":
                send("readyok")
            elif pending is not None:
                send(f"error {command}: a search is running (send stop first)")
            elif command == "protocol":
                if args != ["1"]:
                    send("error unsupported protocol version")
                    continue
                send("id name protocol_engine example")
                send("id author katra's examples")
                send("games " + " ".join(katra.GAME_IDS + katra.match.family_wildcards()))
                send("option name seed type spin default 0 min 0 max 1000000")
                send("protocolok 1")
            elif command == "setoption":  # setoption name seed value 7
                if args[:1] != ["name"] or args[2:3] != ["value"] or args[1] != "seed":
                    send(f"error unknown option in {line.strip()!r}")
                    continue
                rng = random.Random(int(args[3]))
                send("ok")
            elif command == "newgame":
                send("ok")
            elif command == "position":  # position TEXT [moves MOVE ...]
                cut = args.index("moves") if "moves" in args else len(args)
                text = " ".join(args[:cut])
                state = katra.State.from_text(text) if " " in text else katra.State(text)
                for move in args[cut + 1:]:
                    state.push(move)
                send("ok")
            elif state is None:
                send(f"error {command}: no position yet")
            elif command == "play":  # the walk protocol of katra diff --walk
                state.push(args[0])
                send("ok")
            elif command == "legal":
                send(" ".join(state.legal_moves))
            elif command == "text":
                send(state.text())
            elif command == "go":
                if state.is_terminal():
                    send("error go: the game is over")
                    continue
                start = time.monotonic()
                action, lead = choose(state, rng, move_seconds(args, state.to_move))
                ms = int((time.monotonic() - start) * 1000)
                send(f"info depth 1 score value {lead} time {ms} pv {state.action_text(action)}")
                answer = f"bestmove {state.action_text(action)}"
                if "infinite" in args:
                    pending = answer  # sent when stop comes
                else:
                    send(answer)
            else:
                send(f"error unknown command {command!r}")
        except (ValueError, IndexError) as exc:  # katra's errors are ValueErrors
            send(f"error {' '.join(str(exc).split())}")


if __name__ == "__main__":
    main()
