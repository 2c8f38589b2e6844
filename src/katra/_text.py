"""Text forms shared by both backends (docs/rules.md §1.1, §1.5).

* square names (``a1`` ... chess style, ``a1`` = index 0);
* position text ``<game-id> <rows> <to-move> [key=value ...]``, read strictly
  and written canonically;
* move text <-> integer actions.

Nothing here plays the games; it only reads and writes them.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._errors import IllegalMoveError, PositionError, UnknownGameError
from ._games import (
    DJENON,
    GORE,
    GORE_ACCEPT,
    GORE_DECLINE,
    GORE_OFFER_BASE,
    GORE_PASS,
    GORE_SEEDS_PER_TRADED_HOLE,
    KATRO,
    MAX_TOTAL_SEEDS,
    MPANTSAKA,
    GameSpec,
    game_by_id,
)
from ._limits import as_int

_COUNT = re.compile(r"[0-9]+\Z")


def square_name(spec: GameSpec, index: int) -> str:
    """``a1`` for index 0: column letter, then row number counted from 1."""
    row, col = divmod(index, spec.cols)
    return f"{chr(ord('a') + col)}{row + 1}"


def square_index(spec: GameSpec, name: str) -> int:
    """The flat index of a square name; ValueError (IllegalMoveError) if off the board."""
    match = re.fullmatch(r"([a-z])([0-9]{1,3})", name)
    if not match:
        raise IllegalMoveError(f"{name[:20]!r} is not a square name (expected like 'a1')")
    col = ord(match.group(1)) - ord("a")
    row = int(match.group(2))
    if col >= spec.cols or not 1 <= row <= spec.rows:
        last = square_name(spec, spec.holes - 1)
        raise IllegalMoveError(f"square {name!r} is not on the {spec.id} board (a1..{last})")
    return (row - 1) * spec.cols + col


def offer_squares(mask: int) -> list[int]:
    """The square indices in a Goré offer mask, ascending (a Goré board has at most
    8 holes, §7.1)."""
    return [i for i in range(8) if mask >> i & 1]


@dataclass
class PositionData:
    """A position as read from text: plain lists, flat index order."""

    spec: GameSpec
    board: list[int]
    to_move: int
    stores: list[int]
    owners: list[int]
    offer: int  # Goré: mask of squares offered by the player not to move; 0 if none


def initial_data(spec: GameSpec) -> PositionData:
    return PositionData(spec, [spec.seeds_per_hole] * spec.holes, 0, [0, 0],
                        spec.initial_owners(), 0)


def _rows_top_down(spec: GameSpec, values: Sequence[object], sep: str) -> str:
    rows = []
    for row in range(spec.rows - 1, -1, -1):
        rows.append(sep.join(str(v) for v in values[row * spec.cols:(row + 1) * spec.cols]))
    return "/".join(rows)


def format_position(data: PositionData) -> str:
    """The canonical text: every key the game has, in the order stores, owners, offer."""
    spec = data.spec
    fields = [spec.id, _rows_top_down(spec, data.board, ","), "SN"[data.to_move]]
    if "stores" in spec.keys:
        fields.append(f"stores={data.stores[0]},{data.stores[1]}")
    if "owners" in spec.keys:
        fields.append("owners=" + _rows_top_down(spec, ["SN"[o] for o in data.owners], ""))
    if data.offer:
        fields.append("offer=" + ",".join(square_name(spec, i) for i in offer_squares(data.offer)))
    return " ".join(fields)


def _parse_rows(spec: GameSpec, text: str, what: str,
                cell: Callable[[str, int], list[int]]) -> list[int]:
    """Rows from the top down; ``cell(row_text, row_number)`` splits one row."""
    rows = text.split("/")
    if len(rows) != spec.rows:
        raise PositionError(f"{what}: expected {spec.rows} rows separated by '/', got {len(rows)}")
    flat = [0] * spec.holes
    for k, row_text in enumerate(rows):
        row_number = spec.rows - k
        cells = cell(row_text, row_number)
        if len(cells) != spec.cols:
            raise PositionError(f"{what}: row {row_number} has {plural(len(cells), 'hole')}, "
                                f"expected {spec.cols}")
        start = (row_number - 1) * spec.cols
        flat[start:start + spec.cols] = cells
    return flat


def _count(text: str, where: str) -> int:
    if not _COUNT.match(text):
        raise PositionError(f"{where}: {text[:20]!r} is not a non-negative integer")
    if len(text) > 9:  # far above any bound the position is checked against
        raise PositionError(f"{where}: {text[:20]!r}... ({len(text)} digits) is too large")
    return int(text)


def parse_position(text: object) -> PositionData:
    """Read a position text (docs/rules.md §1.5); PositionError names what is wrong."""
    if not isinstance(text, str):
        raise PositionError(f"a position text must be a str, not {type(text).__name__}")
    fields = text.strip().split(" ")
    if len(fields) < 3 or "" in fields:
        raise PositionError("a position text is '<game-id> <rows> <to-move> [key=value ...]' "
                            f"with fields separated by one space; got {text!r}")
    try:
        spec = game_by_id(fields[0])
    except UnknownGameError as exc:
        raise PositionError(str(exc)) from None

    def count_row(row_text: str, row_number: int) -> list[int]:
        return [_count(c, f"rows: row {row_number}") for c in row_text.split(",")]

    board = _parse_rows(spec, fields[1], "rows", count_row)
    if fields[2] not in ("S", "N"):
        raise PositionError(f"to-move: expected 'S' or 'N', got {fields[2]!r}")
    data = initial_data(spec)
    data.board = board
    data.to_move = "SN".index(fields[2])
    seen: set[str] = set()
    offer_text = None
    for field in fields[3:]:
        key, eq, value = field.partition("=")
        if not eq or key not in spec.keys:
            allowed = ", ".join(spec.keys) or "none"
            raise PositionError(f"unexpected field {field!r} for {spec.id} "
                                f"(keys allowed: {allowed})")
        if key in seen:
            raise PositionError(f"key {key!r} given twice")
        seen.add(key)
        if key == "stores":
            parts = value.split(",")
            if len(parts) != 2:
                raise PositionError(f"stores: expected '<S>,<N>', got {value!r}")
            data.stores = [_count(p, "stores") for p in parts]
        elif key == "owners":
            def owner_row(row_text: str, row_number: int) -> list[int]:
                for letter in row_text:
                    if letter not in "SN":
                        raise PositionError(f"owners: row {row_number}: owner letter must be "
                                            f"S or N, got {letter!r}")
                return ["SN".index(letter) for letter in row_text]
            data.owners = _parse_rows(spec, value, "owners", owner_row)
        else:
            offer_text = value
    if offer_text is not None:
        data.offer = _parse_offer(spec, offer_text)
    return check_position(data)


def _parse_offer(spec: GameSpec, text: str) -> int:
    """The mask of an offer's square names (checked against the rules by check_position)."""
    names = text.split(",")
    try:
        squares = [square_index(spec, name) for name in names]
    except IllegalMoveError as exc:
        raise PositionError(f"offer: {exc}") from None
    if squares != sorted(set(squares)):
        raise PositionError(f"offer: squares must be distinct and in index order, got {text!r}")
    return sum(1 << i for i in squares)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the word in agreement: ``1 ply``, ``2 plies`` (``words``: the plural when
    it is not ``word + "s"``)."""
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


def _plain_int(value: object, what: str) -> int:
    number = as_int(value)
    if number is None:
        raise PositionError(f"{what} must be an int, not {type(value).__name__}")
    return number


def _int_list(values: object, size: int, what: str, top: int | None = None) -> list[int]:
    """``size`` ints ``>= 0`` (and ``<= top`` if given) from a list or a tuple, as a new list."""
    if not isinstance(values, (list, tuple)) or len(values) != size:
        got = (f"{len(values)} values" if isinstance(values, (list, tuple))
               else type(values).__name__)
        raise PositionError(f"{what}: expected a list of {size} ints, got {got}")
    checked = [_plain_int(v, f"{what}[{i}]") for i, v in enumerate(values)]
    for i, v in enumerate(checked):
        if v < 0 or (top is not None and v > top):
            allowed = ">= 0" if top is None else f"in 0..{top}"
            raise PositionError(f"{what}[{i}] must be {allowed}, got {v}")
    return checked


def check_position(data: object) -> PositionData:
    """Check a position as reading its text does, and return it as plain ints.

    The one validation of every way to build a position (``parse_position``,
    ``Position(data)`` on both backends): a known game, the right number of
    counts, owners and stores, counts >= 0, ``to_move`` 0 or 1, stores and
    owners only where the game has them, at most ``MAX_TOTAL_SEEDS`` seeds and
    a pending offer the rules could have produced.  ``PositionError`` names the
    first problem.
    """
    if not isinstance(data, PositionData):
        raise PositionError(f"a position must be a katra._text.PositionData, "
                            f"not {type(data).__name__}")
    spec = data.spec
    try:
        known = game_by_id(spec.id) if isinstance(spec, GameSpec) else None
    except UnknownGameError:
        known = None
    if known is None or known != spec:
        raise PositionError(f"spec: {spec!r} is not one of katra's games")
    board = _int_list(data.board, known.holes, "board")
    stores = _int_list(data.stores, 2, "stores")
    owners = _int_list(data.owners, known.holes, "owners", top=1)
    spec = known
    to_move = _plain_int(data.to_move, "to_move")
    offer = _plain_int(data.offer, "offer")
    if to_move not in (0, 1):
        raise PositionError(f"to_move must be 0 (South) or 1 (North), got {to_move}")
    if "stores" not in spec.keys and stores != [0, 0]:
        raise PositionError(f"stores: {spec.id} has no stores, got {stores}")
    if "owners" not in spec.keys and owners != spec.initial_owners():
        raise PositionError(f"owners: {spec.id}'s holes never change owner, got {owners}")
    total = sum(board) + sum(stores)
    if total > MAX_TOTAL_SEEDS:
        raise PositionError(f"the position holds {total} seeds; at most {MAX_TOTAL_SEEDS} allowed")
    checked = PositionData(spec, board, to_move, stores, owners, offer)
    if offer:
        _check_offer(checked)
    return checked


def _check_offer(data: PositionData) -> None:
    """A pending Goré offer, checked against what the rules could have produced (§4.2)."""
    spec = data.spec
    if "offer" not in spec.keys:
        raise PositionError(f"offer: {spec.id} has no offers, got {data.offer}")
    if not 0 < data.offer < 1 << spec.holes:
        raise PositionError(f"offer: a mask of {spec.holes} holes is in "
                            f"1..{(1 << spec.holes) - 1}, got {data.offer}")
    squares = offer_squares(data.offer)
    offerer = 1 - data.to_move
    k = len(squares)
    owned = [i for i in range(spec.holes) if data.owners[i] == offerer]
    if k > 3:
        raise PositionError(f"offer: at most 3 holes may be offered, got {k}")
    for i in squares:
        if data.owners[i] != offerer:
            raise PositionError(f"offer: {square_name(spec, i)} is not owned by the offerer "
                                f"({'SN'[offerer]}, the player not to move)")
    if len(owned) <= k:
        raise PositionError("offer: the offerer must keep at least one hole")
    if data.stores[data.to_move] < GORE_SEEDS_PER_TRADED_HOLE * k:
        raise PositionError(f"offer: {k} hole(s) need {GORE_SEEDS_PER_TRADED_HOLE * k} seeds in "
                            f"the answering player's store, which holds "
                            f"{data.stores[data.to_move]}")
    if not any(data.board[i] for i in owned):
        raise PositionError("offer: the offerer owns no seeds, so could only have passed")
    if max(data.board) < 3:
        raise PositionError("offer: every hole holds fewer than 3 seeds, so the game had ended")


# ---------------------------------------------------------------- move text

def action_text(spec: GameSpec, action: int) -> str:
    """The text of an action number (no legality check; range is checked)."""
    check_action_range(spec, action)
    if spec.family == KATRO:
        return square_name(spec, action)
    if spec.family == MPANTSAKA:
        return square_name(spec, action // 2) + "+-"[action % 2]
    if spec.family == DJENON:
        return "pass" if action == spec.pass_action else square_name(spec, action)
    if action < GORE_OFFER_BASE:
        return square_name(spec, action)
    if action < GORE_PASS:
        mask = action - GORE_OFFER_BASE
        return "offer:" + ",".join(square_name(spec, i) for i in offer_squares(mask))
    return {GORE_PASS: "pass", GORE_ACCEPT: "accept", GORE_DECLINE: "decline"}[action]


def check_action_range(spec: GameSpec, action: object) -> int:
    """The action as a plain int if it is an int inside the game's action space."""
    number = as_int(action)
    if number is None:
        raise IllegalMoveError(f"an action must be an int, not {type(action).__name__}")
    action = number
    if not 0 <= action < spec.num_actions:
        raise IllegalMoveError(f"action {action} is outside {spec.id}'s action space "
                               f"0..{spec.num_actions - 1}")
    if spec.family == GORE and GORE_OFFER_BASE <= action < GORE_PASS:
        bits = bin(action - GORE_OFFER_BASE).count("1")
        if not 1 <= bits <= 3:
            raise IllegalMoveError(f"action {action} is an offer of {bits} holes; "
                                   "an offer names 1 to 3 holes")
    if spec.family == GORE and action < GORE_PASS:
        # Goré keeps its 267 actions on every board (§7.2): on a smaller board
        # some name holes it lacks.
        holes = [action] if action < GORE_OFFER_BASE else offer_squares(action - GORE_OFFER_BASE)
        if holes[-1] >= spec.holes:
            raise IllegalMoveError(f"action {action} names a hole {spec.id} does not have "
                                   f"(its holes are 0..{spec.holes - 1})")
    return action


def parse_action(spec: GameSpec, text: object) -> int:
    """The action number of a move text (no legality check).

    Reading ignores case and surrounding spaces (``" C1 "`` is ``c1``): the API's
    ``push`` and ``katra play`` read moves with this one function.
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move text must be a str, not {type(text).__name__}")
    word = text.strip().lower()
    if spec.family == KATRO:
        return square_index(spec, word)
    if spec.family == MPANTSAKA:
        if len(word) < 2 or word[-1] not in "+-":
            raise IllegalMoveError(f"{text!r}: a {spec.id} move is a square and a direction, "
                                   "e.g. 'c2+' (counter-clockwise) or 'c2-' (clockwise)")
        return 2 * square_index(spec, word[:-1]) + "+-".index(word[-1])
    if spec.family == DJENON:
        return spec.holes if word == "pass" else square_index(spec, word)  # the pass (§7.2)
    named = {"pass": GORE_PASS, "accept": GORE_ACCEPT, "decline": GORE_DECLINE}
    if word in named:
        return named[word]
    if word.startswith("offer:"):
        squares = [square_index(spec, name) for name in word[len("offer:"):].split(",")]
        if len(set(squares)) != len(squares) or not 1 <= len(squares) <= 3:
            raise IllegalMoveError(f"{text!r}: an offer names 1 to 3 distinct squares")
        return GORE_OFFER_BASE + sum(1 << i for i in squares)
    return square_index(spec, word)
