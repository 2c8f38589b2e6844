"""``katra rules``: a game's rules in a screenful, or the whole rulebook.

``katra rules GAME`` is a short retelling of docs/rules.md for the terminal:
the start position (drawn as ``katra show`` draws it), the sowing path for
South (North's is the same path turned half round) and the rules in brief.
``katra rules GAME --full`` prints the game's complete rules from the rulebook
shipped inside the package (``katra/docs/rules.md``): the common ground (§1),
the game's own section and the conventions for tools (§6).
``katra rules --full`` prints the whole rulebook.
"""
from __future__ import annotations

import re
from importlib import resources

from rich.text import Text

from katra._games import DJENON, GORE, KATRO, MPANTSAKA
from katra.api import game as find

from .board import board, title
from .term import out


def _row(cols: int, row: int, arrow: str) -> str:
    """One board row's squares, joined by arrow (drawn at 5 characters a square)."""
    return f" {arrow} ".join(f"{chr(ord('a') + col)}{row}" for col in range(cols))


def _between(cols: int, *columns: tuple[int, str]) -> str:
    """The line between two drawn rows: an arrow under each (column, arrow)."""
    line = [" "] * (6 + 5 * cols)
    for col, arrow in columns:
        line[6 + 5 * col] = arrow
    return "".join(line).rstrip()


def _katro_path(cols: int, rows: int) -> str:
    """South's zig-zag through its own rows (docs/rules.md §2.1, §7.3)."""
    last = chr(ord("a") + cols - 1)
    if rows == 6:
        return "\n".join([
            "South sows forward along a closed zig-zag through its own three rows:",
            f"  3   {_row(cols, 3, '→')}    inner   (after {last}3: back to a1)",
            _between(cols, (0, "↑")),
            f"  2   {_row(cols, 2, '←')}    middle",
            _between(cols, (cols - 1, "↑")),
            f"  1   {_row(cols, 1, '→')}    outer"])
    return "\n".join([
        "South sows forward round its own two rows:",
        f"  2   {_row(cols, 2, '←')}    inner   (after a2: back to a1)",
        f"  1   {_row(cols, 1, '→')}    outer   (after {last}1 comes {last}2)"])


def _loop_path(cols: int, intro: str, top: str, bottom: str) -> str:
    """A loop round two rows, counter-clockwise as drawn."""
    return "\n".join([intro,
                      f"  2   {_row(cols, 2, '←')}    {top}",
                      _between(cols, (0, "↓"), (cols - 1, "↑")),
                      f"  1   {_row(cols, 1, '→')}    {bottom}"])


_KATRO_RULES = """\
Move: sow all the seeds of a hole in your outermost row that still has seeds
  (a single seed may move; no passing). Move text: the square, e.g. a1.
After each lap, look at the landing hole h:
  * h was empty: the move ends.
  * h is in your innermost row that has seeds, and the hole in h's column of
    the opponent's innermost row that has seeds is not empty: capture. Both
    holes are lifted and sown together from the hole after h.
  * otherwise: relay, sowing the seeds of h onwards.
A move must end within 10,000 laps to be legal.
End: a player with no legal move on their turn loses. No draws."""

_MPANTSAKA_RULES = """\
Move: choose a hole of your front row with seeds (only when the whole front
  row is empty, one of your back row){simplified} and a direction.
  Move text: square and direction, e.g. c2+ or c2-.
After each lap, look at the landing hole h:
  * h was empty: the move ends.
  * h is in your front row and the opponent's front-row hole in the same
    column has seeds: capture. Both holes are lifted and sown together from
    the hole after h, same direction (any number of captures per move).
  * otherwise: relay, sowing the seeds of h onwards.
A move must end within 10,000 laps to be legal.
End: a player with no seeds (or no legal move) on their turn loses. No draws."""

_GORE_RULES = """\
Every hole has an owner (at the start South owns row 1, North row 2) and each
player has a store. A turn is one of:
  * sow: one lap from a hole you own with seeds (no relays). If the last seed
    lands in an opponent's hole and makes it 2 or 4, capture it, and the
    unbroken runs of holes holding 2 or 4 on both sides of it. Text: b1.
  * offer 1 to 3 of your holes (keeping one) to the opponent, whose store must
    hold 6 seeds per hole offered. Text: offer:a1,c1.
  * pass, only (and then always) when your holes hold no seeds. Text: pass.
The opponent answers an offer at once with accept (taking the holes and
paying 6 seeds from its store into each) or decline, then plays its turn.
End: when the player about to take a turn finds no hole with 3 or more seeds,
each player adds the seeds of the holes they own to their store; the larger
store wins, equal stores draw."""

_DJENON_RULES = """\
Move: choose a hole of your row with at least 2 seeds. Each lap lifts all the
  seeds of its hole and drops the first one back into that same hole. Let b be
  what the landing hole held before the last seed:
  * b = 0: the move ends.
  * b = 1 or 3 (the hole now holds 2 or 4): capture it into your store, and
    the holes before it, one by one, while each holds exactly 2 or 4. The
    move ends.
  * otherwise: relay from the landing hole.
With no legal move you must pass, as long as some hole holds 2 or more.
Move text: the square (b1) or pass.
End: when no hole holds 2 or more seeds, each player adds the seeds of their
row to their store; the larger store wins, equal stores draw."""


def summary(game_id: str) -> tuple[str, str]:
    """The path diagram and the rules text of one game (any board, docs/rules.md §7)."""
    game = find(game_id)
    family, cols = game.spec.family, game.cols
    if family == KATRO:
        return _katro_path(cols, game.rows), _KATRO_RULES
    if family == MPANTSAKA:
        simplified = " (in this simplified variant: any of your holes with seeds)"
        path = _loop_path(cols, f"South sows round its own {2 * cols} holes, in the direction "
                          "chosen for the move\n(+ counter-clockwise as drawn, - clockwise: "
                          "every arrow reversed):", "front", "back")
        return path, _MPANTSAKA_RULES.format(
            simplified=simplified if game.spec.simplified else "")
    intro = f"Every sowing runs counter-clockwise round all {game.holes} holes:"
    if family == GORE:
        return _loop_path(cols, intro, "", "").replace("    \n", "\n").rstrip(), _GORE_RULES
    assert family == DJENON
    return _loop_path(cols, intro, "North's row", "South's row"), _DJENON_RULES


def print_rules(name: str) -> None:
    game = find(name)
    console = out()
    total = game.holes * game.seeds_per_hole
    console.print(Text(title(game.id), style="bold"))
    stores = "a store for each player" if game.has_stores else "no stores"
    console.print(f"{game.rows} x {game.cols} board, {game.seeds_per_hole} seeds per hole "
                  f"({total} in all), {stores}.\nSouth (bottom) moves first; North sits at "
                  f"the top. Squares are named like chess\nsquares: column letter, then row "
                  f"number, a1 at South's left.")
    console.print()
    console.print(Text("The board at the start", style="bold"))
    console.print(board(game.initial_state(), status=False))
    console.print()
    path, rules = summary(game.id)
    console.print(path)
    console.print()
    console.print(rules)
    console.print()
    sections = f"§{RULEBOOK_SECTION[game.spec.family]}" + ("" if game.spec.named else ", §7")
    console.print(Text(f"The complete rules: katra rules {game.id} --full "
                       f"(docs/rules.md {sections})\n"
                       f"Try: katra play {game.id}", style="dim"))


# ---------------------------------------------------------------- the rulebook

#: The rulebook's section for each game family; §1 (common ground) and §6
#: (conventions for tools) apply to every game.
RULEBOOK_SECTION = {KATRO: 2, MPANTSAKA: 3, GORE: 4, DJENON: 5}
COMMON_SECTIONS = (1, 6)
VARIANTS_SECTION = 7        # other board sizes and seed counts

_SECTION_HEADING = re.compile(r"^## (\d+)\. ", re.MULTILINE)


def rulebook_text() -> str:
    """The rulebook as shipped in the package (katra/docs/rules.md)."""
    from .common import CommandFailed

    try:
        return resources.files("katra").joinpath("docs", "rules.md").read_text(encoding="utf-8")
    except OSError:
        raise CommandFailed("katra rules: the rulebook katra/docs/rules.md is missing from "
                            "this installation of katra; reinstall it with pip") from None


def rulebook_sections(text: str) -> dict[int, str]:
    """The numbered top-level sections (``## N. ...`` up to the next one), by number."""
    starts = list(_SECTION_HEADING.finditer(text))
    return {int(match.group(1)): text[match.start():(starts[k + 1].start() if k + 1 < len(starts)
                                                      else len(text))].rstrip() + "\n"
            for k, match in enumerate(starts)}


def full_rules(game_id: str | None) -> str:
    """The whole rulebook, or one game's complete rules (§1, its section, §6, and
    §7 for a variant)."""
    text = rulebook_text()
    if game_id is None:
        return text
    sections = rulebook_sections(text)
    spec = find(game_id).spec
    wanted = sorted({*COMMON_SECTIONS, RULEBOOK_SECTION[spec.family],
                     *(() if spec.named else (VARIANTS_SECTION,))})
    return "\n".join(sections[number] for number in wanted)


def print_full_rules(name: str | None) -> None:
    out().print(full_rules(name), end="")
