"""A match's results: the JSON-lines results file, the game records, the standings
(docs/match.md, "The results file").

The results file's first line names the match (its header); each further line
is one game, appended, flushed and fsynced as the game ends, so a match stopped
at any point keeps every finished game and ``--resume`` continues it.

Unfinished games (stopped by the ply limit, docs/rules.md §6.1) are never a
win, a loss or a draw: they are counted apart, left out of W/D/L, and a pair
holding one is left out of the pentanomial counts.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any

from katra._errors import KatraError

#: The header's ``format`` value: the version of this file format.
RESULTS_FORMAT = "katra-match 1"
#: Header keys that may differ between a match and its resumption (more games).
RESUMABLE_KEYS = ("games",)

POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def game_points(entry: dict[str, Any], engine: int) -> float | None:
    """The points ``engine`` scored in one game entry (None: unfinished)."""
    points = POINTS.get(entry["result"])
    if points is None:
        return None
    return points[0] if entry["south"] == engine else points[1]


@dataclass
class Standing:
    """One pairing's score from its first engine's side: wins, draws, losses,
    unfinished games, pentanomial pair counts (0, 1/2, 1, 3/2, 2 points of a pair
    with both games finished) and the forfeits of each engine by kind."""

    first: int
    second: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    forfeits: dict[int, Counter[str]] = field(default_factory=dict)
    _halves: dict[int, list[float | None]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses + self.unfinished

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    def add(self, entry: dict[str, Any]) -> None:
        points = game_points(entry, self.first)
        if points is None:
            self.unfinished += 1
        elif points == 1.0:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        else:
            self.losses += 1
        if entry.get("faulty") is not None:
            faulty = entry["south"] if entry["faulty"] == 0 else entry["north"]
            self.forfeits.setdefault(faulty, Counter())[entry["termination"]] += 1
        pair = self._halves.setdefault(entry["pair"], [])
        pair.append(points)
        if len(pair) == 2 and None not in pair:
            total = sum(p for p in pair if p is not None)
            self.pentanomial[int(total * 2)] += 1

    def statistics(self, sprt: dict[str, Any] | None) -> dict[str, Any]:
        """Elo ± 95%, LOS and the SPRT verdict (katra.stats) of the games so far."""
        from katra import stats
        wdl = {"wins": self.wins, "draws": self.draws, "losses": self.losses}
        found: dict[str, Any] = {"elo": None, "elo_error95": None, "los": None, "sprt": None}
        if sum(wdl.values()):
            if sum(self.pentanomial):
                value, error = stats.elo_pentanomial(tuple(self.pentanomial))
            else:
                value, error = stats.elo(**wdl)
            found.update(elo=value, elo_error95=error, los=stats.los(**wdl))
        if sprt is not None:
            test = stats.sprt(**sprt, pentanomial=tuple(self.pentanomial))
            found["sprt"] = {"llr": test.llr, "lower": test.lower, "upper": test.upper,
                             "result": test.result}
        return found


class Standings:
    """Every pairing's ``Standing``, fed game entries in any order."""

    def __init__(self, pairings: list[tuple[int, int]]) -> None:
        self.pairings = pairings
        self.by_pairing = [Standing(a, b) for a, b in pairings]
        self.entries: list[dict[str, Any]] = []

    def add(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        self.by_pairing[entry["pairing"]].add(entry)

    @property
    def games(self) -> int:
        return len(self.entries)

    def engine_scores(self, engines: int) -> list[tuple[float, int]]:
        """(points, finished games) of every engine over all its pairings."""
        totals = [(0.0, 0)] * engines
        for entry in self.entries:
            for engine in (entry["south"], entry["north"]):
                points = game_points(entry, engine)
                if points is not None:
                    total, count = totals[engine]
                    totals[engine] = (total + points, count + 1)
        return totals


# ---------------------------------------------------------------- the file

def _fsync_write(file: IO[str], line: str) -> None:
    file.write(line + "\n")
    file.flush()
    os.fsync(file.fileno())


def _differences(header: dict[str, Any], found: dict[str, Any]) -> list[str]:
    keys = sorted((set(header) | set(found)) - set(RESUMABLE_KEYS))
    return [key for key in keys if header.get(key) != found.get(key)]


class ResultsFile:
    """The results file of one match: opened for appending after its header is written
    (a new file) or checked (``resume``: the same match, else KatraError)."""

    def __init__(self, path: str, header: dict[str, Any], resume: bool) -> None:
        self.path = path
        self.done: list[dict[str, Any]] = []
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if exists and not resume:
            raise KatraError(f"the results file {path!r} already exists: --resume continues "
                             "its match, or name another file")
        if exists:
            self.done = self._read(header)
        self._header = None if exists else header
        self._file: IO[str] | None = None

    def open(self) -> None:
        """Open for appending (once nothing else can fail), the header written if new."""
        try:
            self._file = open(self.path, "a", encoding="utf-8")
        except OSError as exc:
            raise KatraError(f"cannot write the results file {self.path!r}: "
                             f"{exc.strerror or exc}") from None
        if self._header is not None:
            _fsync_write(self._file, json.dumps(self._header))

    def _read(self, header: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            with open(self.path, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise KatraError(f"cannot read the results file {self.path!r}: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
        lines = text.split("\n")
        if lines[-1]:  # a line cut short by a crash while it was written: never counted
            raise KatraError(f"{self.path}: the last line is incomplete; remove it to resume")
        entries = []
        for number, line in enumerate(lines[:-1], start=1):
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                raise KatraError(f"{self.path} line {number} is not JSON") from None
        found = entries[0] if entries else {}
        if not isinstance(found, dict) or found.get("format") != RESULTS_FORMAT:
            raise KatraError(f"{self.path} is not a katra match results file")
        differ = _differences(header, found)
        if differ:
            raise KatraError(f"{self.path} holds another match (its {', '.join(differ)} "
                             "differ): --resume continues only the same match")
        return entries[1:]

    def write(self, entry: dict[str, Any]) -> None:
        assert self._file is not None
        _fsync_write(self._file, json.dumps(entry))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


class RecordsFile:
    """Game records (docs/api.md, "Game records"), one per game, appended as games end."""

    def __init__(self, path: str) -> None:
        try:
            self._file = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise KatraError(f"cannot write the records file {path!r}: "
                             f"{exc.strerror or exc}") from None

    def write(self, record: str) -> None:
        self._file.write(record + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()
