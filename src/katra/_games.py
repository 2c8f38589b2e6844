"""The table of games: ids, board sizes and action spaces (docs/rules.md §1.5, §1.6).

This is data shared by the reference, the compiled core and the API; the rules
themselves live in one file per game family in each backend.
"""
from __future__ import annotations

from dataclasses import dataclass

from ._errors import ArgumentError, ArgumentTypeError, UnknownGameError

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
    named: bool = True  # one of the seven ids of GAMES (else a variant: docs/rules.md §7)

    @property
    def holes(self) -> int:
        return self.rows * self.cols

    @property
    def pass_action(self) -> int | None:
        """The pass's action number (Goré's 264, Djenon-aboure's the hole
        count: §1.5, §7.2), or None in the games without a pass."""
        if self.family == GORE:
            return GORE_PASS
        if self.family == DJENON:
            return self.holes
        return None

    @property
    def variant_family(self) -> str:
        """The family id of §7's variant texts (the simplified Katra
        Mpantsaka counts as a family of its own there)."""
        return _VARIANT_FAMILY_IDS[(self.family, self.simplified)]

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

# ---------------------------------------------------------------- variants (docs/rules.md §7)

#: The most holes a board may have (the compiled core's position holds 36).
MAX_BOARD_HOLES = 36

#: The family ids variant texts begin with, and the keyword form's family
#: names: (family, simplified) -> id.
_VARIANT_FAMILY_IDS: dict[tuple[str, bool], str] = {
    (KATRO, False): "katro",
    (MPANTSAKA, False): "katra-mpantsaka",
    (MPANTSAKA, True): "katra-mpantsaka-simplified",
    (GORE, False): "gore",
    (DJENON, False): "djenon-aboure",
}

#: Per family: the rows a board may have, the columns (least, most) for each
#: and the seeds per hole of its named game (docs/rules.md §7.1).
VARIANT_ROWS: dict[str, tuple[int, ...]] = {
    KATRO: (4, 6), MPANTSAKA: (4,), GORE: (2,), DJENON: (2,)}
VARIANT_COLS: dict[tuple[str, int], tuple[int, int]] = {
    (KATRO, 4): (2, 9), (KATRO, 6): (2, 6), (MPANTSAKA, 4): (2, 9),
    # Goré: at most 8 holes, so that an offer is a byte and 8 sows + 92 offers
    # fit the core's 128 candidates.
    (GORE, 2): (2, 4),
    (DJENON, 2): (2, 18),
}
FAMILY_NAMES: dict[str, str] = {KATRO: "Katro", MPANTSAKA: "Katra Mpantsaka", GORE: "Goré",
                                DJENON: "Djenon-aboure"}


def variant_ranges(family: str) -> str:
    """The sizes a family's variants may take, in words (for errors and docs)."""
    sizes = [(rows, *VARIANT_COLS[(family, rows)]) for rows in VARIANT_ROWS[family]]
    cols = ", ".join(f"{rows} rows x {least}..{most} columns" for rows, least, most in sizes)
    return f"{cols}; seeds 1 or more a hole, at most {MAX_TOTAL_SEEDS} in all"


def _check_size(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    return value


def variant(family: str, rows: int, cols: int, seeds: int, simplified: bool = False) -> GameSpec:
    """The game of family on a rows x cols board with seeds a hole at the start
    (docs/rules.md §7): one of the named games when it is one (Katro 4x6 with
    2 seeds is ``katro-4x6``), else a variant whose id names all four.
    ArgumentError names a parameter out of its range."""
    if family not in FAMILIES:
        raise UnknownGameError(f"unknown game family {family!r}; families: {', '.join(FAMILIES)}")
    rows = _check_size("rows", rows)
    cols = _check_size("cols", cols)
    seeds = _check_size("seeds", seeds)
    if not isinstance(simplified, bool):
        raise ArgumentTypeError(f"simplified must be a bool, not {type(simplified).__name__}")
    name = FAMILY_NAMES[family]
    if simplified and family != MPANTSAKA:
        raise ArgumentError(f"simplified is a rule of Katra Mpantsaka only, not of {name}")
    if rows not in VARIANT_ROWS[family]:
        allowed = " or ".join(str(r) for r in VARIANT_ROWS[family])
        raise ArgumentError(f"rows={rows} is out of range: a {name} board has {allowed} rows")
    least, most = VARIANT_COLS[(family, rows)]
    if not least <= cols <= most:
        raise ArgumentError(f"cols={cols} is out of range: a {name} board of {rows} rows has "
                            f"{least} to {most} columns")
    if not 1 <= seeds <= MAX_TOTAL_SEEDS // (rows * cols):
        raise ArgumentError(f"seeds={seeds} is out of range: a {rows}x{cols} board takes 1 to "
                            f"{MAX_TOTAL_SEEDS // (rows * cols)} seeds a hole (at most "
                            f"{MAX_TOTAL_SEEDS} in all)")
    for spec in GAMES.values():
        if (spec.family, spec.rows, spec.cols, spec.seeds_per_hole, spec.simplified) == (
                family, rows, cols, seeds, simplified):
            return spec
    family_id = _VARIANT_FAMILY_IDS[(family, simplified)]
    game_id = f"{family_id}-{rows}x{cols}-s{seeds}"
    made = _VARIANTS.get(game_id)
    if made is None:
        holes = rows * cols
        actions = {KATRO: holes, MPANTSAKA: 2 * holes, GORE: GORE_DECLINE + 1,
                   DJENON: holes + 1}[family]
        title = f"{name}{' (simplified)' if simplified else ''} {rows}x{cols}, {seeds} seeds a hole"
        made = GameSpec(game_id, title, family, rows, cols, seeds, actions,
                        has_stores=family in (GORE, DJENON), has_owners=family == GORE,
                        simplified=simplified, named=False)
        _VARIANTS[game_id] = made
    return made


_VARIANTS: dict[str, GameSpec] = {}


def _parse_variant(text: str) -> GameSpec | None:
    """The game a variant text names (``katro-4x5-s3``; the seeds part may be
    left out for the named game's, ``katro-4x5``), or None if text is not
    of that form.  ArgumentError for a form with sizes out of range."""
    head, sep, tail = text.rpartition("-")
    seeds: int | None = None
    if sep and tail[:1] == "s" and tail[1:].isdigit() and tail[1:].isascii():
        seeds = int(tail[1:])
        text = head
        head, sep, tail = text.rpartition("-")
    if not sep:
        return None
    rows_text, x, cols_text = tail.partition("x")
    if not (x and rows_text.isdigit() and cols_text.isdigit() and rows_text.isascii()
            and cols_text.isascii()):
        return None
    base = _BY_NAME.get(_normal(head))      # a family id, or any name of one of its games
    if base is None:
        return None
    return variant(base.family, int(rows_text), int(cols_text),
                   base.seeds_per_hole if seeds is None else seeds, base.simplified)


def _normal(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


_BY_NAME: dict[str, GameSpec] = {}
for _spec in GAMES.values():
    for _name in (_spec.id, _spec.name, *_spec.aliases):
        _BY_NAME[_normal(_name)] = _spec


def find_game(name: object) -> GameSpec:
    """The game with this id, display name or alias (case, '-', '_' and spaces
    ignored), or a variant text (docs/rules.md §7: ``katro-4x5-s3``, case ignored)."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a str, not {type(name).__name__}")
    spec = _BY_NAME.get(_normal(name)) or _parse_variant(name.strip().lower())
    if spec is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(GAME_IDS)}, "
                               "or a variant such as katro-4x5-s3 (docs/rules.md §7)")
    return spec


def game_by_id(game_id: object) -> GameSpec:
    """The game with exactly this id (the form position texts use): a named
    id, or a variant's canonical id (``katro-4x5-s3``)."""
    spec = GAMES.get(game_id) if isinstance(game_id, str) else None
    if spec is None and isinstance(game_id, str):
        try:
            found = _parse_variant(game_id)
        except ArgumentError:
            found = None
        if found is not None and found.id == game_id:
            spec = found
    if spec is None:
        raise UnknownGameError(f"unknown game id {game_id!r}; known ids: {', '.join(GAME_IDS)}, "
                               "and variant ids such as katro-4x5-s3 (docs/rules.md §7)")
    return spec


def game_with(name: object, rows: int | None = None, cols: int | None = None,
              seeds: int | None = None, simplified: bool | None = None) -> GameSpec:
    """The game name names (find_game) with some of its parameters changed:
    ``game_with("katro", rows=4, cols=5, seeds=3)``.  Parameters left out keep
    name's values."""
    base = find_game(name)
    return variant(base.family,
                   base.rows if rows is None else rows,
                   base.cols if cols is None else cols,
                   base.seeds_per_hole if seeds is None else seeds,
                   base.simplified if simplified is None else simplified)
