"""The table of games: ids, board sizes and action spaces (docs/rules.md §1.5, §1.6).

This is data shared by the reference, the compiled core and the API; the rules
themselves live in one file per game family in each backend.
"""
from __future__ import annotations

from dataclasses import dataclass

from ._errors import UnknownGameError

#: A move whose sowing needs more laps than this is not legal (docs/rules.md §1.3).
LAP_LIMIT = 10_000

#: The most seeds a position may hold, board and stores together.  Every start
#: position holds at most 72; the bound keeps single laps short and counts
#: small in the compiled core.  Position texts above it are rejected.
MAX_TOTAL_SEEDS = 1_000

#: The deepest perft/divide accepted.  The compiled core keeps one heap frame
#: per ply (no C recursion, so any depth runs on a 32 KiB thread stack); the
#: bound keeps that small (a forced line can make a tree that deep cheap to
#: count, but nothing deeper is ever needed).
MAX_PERFT_DEPTH = 500

#: Default ply limit of playouts and of tools that play games out (docs/rules.md
#: §6.1): Goré and Katra Mpantsaka games can go on for ever under random play.
DEFAULT_MAX_PLIES = 1_000

KATRO = "katro"
MPANTSAKA = "mpantsaka"
GORE = "gore"
DJENON = "djenon"

#: The families, in the order of the compiled core's FAM_ constants.
FAMILIES: tuple[str, ...] = (KATRO, MPANTSAKA, GORE, DJENON)

# Goré action numbers (docs/rules.md §1.5).
GORE_OFFER_BASE = 8
GORE_PASS = 264
GORE_ACCEPT = 265
GORE_DECLINE = 266
DJENON_PASS = 12

#: Goré: seeds the answerer pays from their store, and the hole receives, per traded hole (§4.2).
GORE_SEEDS_PER_TRADED_HOLE = 6


@dataclass(frozen=True)
class GameSpec:
    """Static facts about one game id."""

    id: str
    name: str
    family: str  # KATRO, MPANTSAKA, GORE or DJENON: which rules file plays it
    rows: int
    cols: int
    seeds_per_hole: int
    num_actions: int
    has_stores: bool
    has_owners: bool  # owners are part of the position (Goré only)
    simplified: bool = False  # katra-mpantsaka-simplified: any own hole may start
    aliases: tuple[str, ...] = ()

    @property
    def holes(self) -> int:
        return self.rows * self.cols

    @property
    def draws(self) -> bool:
        """Can a game end drawn?  Goré and Djenon-aboure (equal scores, §4.5,
        §5.3); in Katro and Katra Mpantsaka the player to move without a
        legal move loses (§2.4, §3.4)."""
        return self.family in (GORE, DJENON)

    @property
    def keys(self) -> tuple[str, ...]:
        """The position-text keys this game writes, in canonical order."""
        if self.family == GORE:
            return ("stores", "owners", "offer")
        if self.has_stores:
            return ("stores",)
        return ()

    def initial_owners(self) -> list[int]:
        """0 (South) for the bottom half of the rows, 1 (North) for the top half."""
        half = self.holes // 2
        return [0] * half + [1] * half


GAMES: dict[str, GameSpec] = {
    spec.id: spec
    for spec in (
        GameSpec("katro", "Katro", KATRO, 6, 6, 2, 36, False, False,
                 aliases=("katro-6x6", "katro 6x6")),
        GameSpec("katro-4x6", "Katro 4x6", KATRO, 4, 6, 2, 24, False, False),
        GameSpec("katro-4x4", "Katro 4x4", KATRO, 4, 4, 2, 16, False, False),
        GameSpec("katra-mpantsaka", "Katra Mpantsaka", MPANTSAKA, 4, 8, 2, 64, False, False,
                 aliases=("mpantsaka",)),
        GameSpec("katra-mpantsaka-simplified", "Katra Mpantsaka (simplified)", MPANTSAKA,
                 4, 8, 2, 64, False, False, simplified=True,
                 aliases=("mpantsaka-simplified",)),
        GameSpec("gore", "Goré", GORE, 2, 4, 6, 267, True, True, aliases=("goré",)),
        GameSpec("djenon-aboure", "Djenon-aboure", DJENON, 2, 6, 4, 13, True, False,
                 aliases=("djenon", "djenon aboure")),
    )
}

GAME_IDS: tuple[str, ...] = tuple(GAMES)


def _normal(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


_BY_NAME: dict[str, GameSpec] = {}
for _spec in GAMES.values():
    for _name in (_spec.id, _spec.name, *_spec.aliases):
        _BY_NAME[_normal(_name)] = _spec


def find_game(name: object) -> GameSpec:
    """The game with this id, display name or alias (case, '-', '_' and spaces ignored)."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a str, not {type(name).__name__}")
    spec = _BY_NAME.get(_normal(name))
    if spec is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(GAME_IDS)}")
    return spec


def game_by_id(game_id: object) -> GameSpec:
    """The game with exactly this id (the form position texts use)."""
    spec = GAMES.get(game_id) if isinstance(game_id, str) else None
    if spec is None:
        raise UnknownGameError(f"unknown game id {game_id!r}; known ids: {', '.join(GAME_IDS)}")
    return spec
