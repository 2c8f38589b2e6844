"""The compiled core against the reference on the variants of docs/rules.md §7.

Every family is played on boards and seed counts drawn by a seeded generator
over the whole ranges of §7.1 (the sizes uniformly, the seeds a hole on a log
scale, so that 1 and the largest count both come up), and the two backends
are compared:

* seeded random games walked side by side, comparing the legal actions, the
  position text and the outcome at every ply;
* generated positions (random counts, owners, stores and pending offers),
  compared on every action that names a hole of the board;
* perft and divide to a small depth, and seeded playout batches, on every
  working form of the core (a Katro or Katra Mpantsaka variant whose rows fit
  the packed lanes runs on the variants' halves, and on the 16-bit halves
  when it has at most 12 holes a player; every variant also runs on the int
  form, which serves the others).

The default run draws a few variants of each family; the ``slow`` run
(``python -m pytest -m slow``) many more, and the ends of each family's
ranges (its smallest board with the most seeds it takes, its largest with 1
and with the most).  The compiled core registers at most 255 games (named and
variants) in one process, so the two runs together stay well below that.
"""
import math
import random

import pytest

import katra
from helpers import compare_on_every_action, on_every_form, quick_and_slow, walk_both
from katra import _core, _reference
from katra._games import (
    DJENON,
    GORE,
    GORE_OFFER_BASE,
    GORE_PASS,
    GORE_SEEDS_PER_TRADED_HOLE,
    KATRO,
    MAX_TOTAL_SEEDS,
    MPANTSAKA,
    VARIANT_COLS,
    VARIANT_ROWS,
    GameSpec,
    variant,
)
from katra._text import PositionData, format_position

#: The families of §7, the simplified Katra Mpantsaka as one of its own.
FAMILIES = [(KATRO, False), (MPANTSAKA, False), (MPANTSAKA, True), (GORE, False), (DJENON, False)]
FAMILY_IDS = ["katro", "mpantsaka", "mpantsaka-simplified", "gore", "djenon"]

#: Variants drawn per family: by default, and under the slow marker.
QUICK_VARIANTS, SLOW_VARIANTS = 4, 24

#: Random play in Goré and Katra Mpantsaka can go on for ever (docs/rules.md §6.1).
MAX_PLIES = 120


def draw_seeds(rng: random.Random, most: int) -> int:
    """Seeds a hole in 1..most: half the time a count games are played with (1 to
    6), else log-uniform over the whole range."""
    if rng.random() < 0.5:
        return rng.randint(1, min(6, most))
    return min(most, max(1, round(math.exp(rng.uniform(0, math.log(most + 1))))))


def draw_variant(rng: random.Random, family: str, simplified: bool) -> GameSpec:
    rows = rng.choice(VARIANT_ROWS[family])
    least, most = VARIANT_COLS[(family, rows)]
    cols = rng.randint(least, most)
    return variant(family, rows, cols, draw_seeds(rng, MAX_TOTAL_SEEDS // (rows * cols)),
                   simplified)


def drawn_variants(count: int) -> list[list[GameSpec]]:
    """``count`` variants of each family (a named game drawn counts as drawn), each
    family from its own generator: the quick run's are the first of the slow run's,
    so the two runs together register at most ``SLOW_VARIANTS`` games a family."""
    drawn = []
    for family, simplified in FAMILIES:
        rng = random.Random(f"variants {family} {simplified}")
        drawn.append([draw_variant(rng, family, simplified) for _ in range(count)])
    return drawn


def corners() -> list[list[GameSpec]]:
    """Per family, the ends of its ranges: the smallest board with the most seeds it
    takes, and the largest boards with 1 seed a hole and with the most."""
    cases = []
    for family, simplified in FAMILIES:
        boards = [(rows, cols) for rows in VARIANT_ROWS[family]
                  for cols in VARIANT_COLS[(family, rows)]]
        small = min(boards, key=lambda board: board[0] * board[1])
        large = max(boards, key=lambda board: board[0] * board[1])
        most = {board: MAX_TOTAL_SEEDS // (board[0] * board[1]) for board in (small, large)}
        cases.append([variant(family, *small, most[small], simplified),
                      variant(family, *large, 1, simplified),
                      variant(family, *large, most[large], simplified)])
    return cases


def per_family(with_corners: bool = True) -> list[pytest.param]:
    """One case per family: its quick variants, and under the slow marker many more
    and (``with_corners``) the ends of its ranges."""
    quick, slow = drawn_variants(QUICK_VARIANTS), drawn_variants(SLOW_VARIANTS)
    cases = []
    for k, family in enumerate(FAMILY_IDS):
        cases.append(pytest.param(quick[k], id=f"{family}-quick"))
        cases.append(pytest.param(slow[k], id=f"{family}-slow", marks=pytest.mark.slow))
        if with_corners:
            cases.append(pytest.param(corners()[k], id=f"{family}-corners",
                                      marks=pytest.mark.slow))
    return cases


def max_plies(spec: GameSpec) -> int:
    """The ply limit of a random game: shorter with many seeds, whose relay sowings
    take the reference long (a single ply of Katra Mpantsaka 4 x 2 with 125 seeds
    a hole can take it a quarter of a second)."""
    return MAX_PLIES if spec.holes * spec.seeds_per_hole <= 300 else 30


# ---------------------------------------------------------------- comparing

def random_position(spec: GameSpec, rng: random.Random) -> str:
    """A readable position of ``spec``: random counts (as many seeds as the start
    holds, or fewer), owners, stores and, in Goré, sometimes a pending offer."""
    total = spec.holes * spec.seeds_per_hole
    high = rng.choice([2, 4, 7, 12, max(1, 2 * total // spec.holes)])
    board = [rng.randint(0, high) for _ in range(spec.holes)]
    while sum(board) > total:
        board[rng.randrange(spec.holes)] //= 2
    owners = spec.initial_owners()
    stores = [0, 0]
    if spec.family == GORE:
        owners = [rng.randint(0, 1) for _ in range(spec.holes)]
    if spec.has_stores:
        left = total - sum(board)
        south = rng.randint(0, left)
        stores = [south, left - south]
        if spec.family == GORE and rng.random() < 0.5:   # stores that pay for trades
            stores = [min(s + GORE_SEEDS_PER_TRADED_HOLE * rng.randint(0, 3), MAX_TOTAL_SEEDS // 3)
                      for s in stores]
    data = PositionData(spec, board, rng.randint(0, 1), stores, owners, 0)
    ref = _reference.Position.from_text(format_position(data))
    if spec.family == GORE and rng.random() < 0.5:
        offers = [a for a in ref.legal_actions() if GORE_OFFER_BASE <= a < GORE_PASS]
        if offers:
            ref.apply(rng.choice(offers))
    return ref.text()


# ---------------------------------------------------------------- the tests

@pytest.mark.parametrize("specs", per_family())
def test_random_games_agree(specs):
    plies = 0
    for k, spec in enumerate(specs):
        start = _reference.Position.initial(spec.id).text()
        plies += sum(walk_both(start, seed, max_plies(spec)) for seed in range(3 * k, 3 * k + 3))
    assert plies > len(specs)  # games really were played


@pytest.mark.parametrize("specs", per_family())
def test_generated_positions_agree(specs):
    rng = random.Random(f"positions {specs[0].id}")
    for spec in specs:
        for _ in range(6):
            text = random_position(spec, rng)
            compare_on_every_action(text)
            walk_both(text, rng.randrange(2**32), min(40, max_plies(spec)))


@pytest.mark.parametrize("specs", per_family())
def test_perft_and_divide_agree(specs):
    for spec in specs:
        ref = _reference.Position.initial(spec.id)
        rng = random.Random(spec.id)
        for _ in range(rng.randrange(8)):  # the start, or a position a few moves in
            actions = ref.legal_actions()
            if not actions:
                break
            ref.apply(rng.choice(actions))
        core = _core.Position.from_text(ref.text())
        assert on_every_form(_core.divide, core, 2) == _reference.divide(ref, 2), ref.text()
        assert on_every_form(_core.perft, core, 3) == _reference.perft(ref, 3), ref.text()


@pytest.mark.parametrize("specs", per_family(with_corners=False))
@pytest.mark.parametrize("games", quick_and_slow(1, 20))
def test_playout_batches_agree(specs, games):
    for spec in specs:
        text = _reference.Position.initial(spec.id).text()
        plies = max_plies(spec)
        ref = _reference.playouts(_reference.Position.from_text(text), games, 7, plies)
        core = on_every_form(_core.playouts, _core.Position.from_text(text), games, 7, plies)
        assert core == ref, text
        assert ref["south_wins"] + ref["north_wins"] + ref["draws"] + ref["unfinished"] == games


@pytest.mark.parametrize("game_id, form, many", [
    ("katro-4x2-s1", "variant_halves", "halves16"), ("katro-6x6-s3", "variant_halves", "int_pos"),
    ("katro-4x7-s1", "int_pos", "int_pos"),         # rows of 7 holes: Katro's lanes take 6
    ("katra-mpantsaka-4x2-s2", "variant_halves", "halves16"),
    ("katra-mpantsaka-simplified-4x8-s3", "variant_halves", "int_pos"),
    ("katra-mpantsaka-4x9-s1", "int_pos", "int_pos"),   # rows of 9 holes: Mpantsaka's take 8
    ("gore-2x3-s4", "int_pos", "int_pos"), ("djenon-aboure-2x5-s4", "int_pos", "int_pos"),
    ("katro-4x4", "katro_4x4", "halves16"), ("katra-mpantsaka", "katra_mpantsaka", "int_pos"),
])
def test_the_form_each_variant_runs_on(game_id, form, many):
    """A Katro or Katra Mpantsaka variant runs on the variants' halves when its
    rows fit the packed lanes and its seeds a byte (at most 255 in all), else on
    the int form, as Goré's and Djenon-aboure's variants always do.  With more
    seeds, a Katro or Katra Mpantsaka board of at most 12 holes a player runs
    on the 16-bit halves (many), named or not."""
    ref = _reference.Position.initial(game_id)
    assert _core._working_form(_core.Position.from_text(ref.text())) == form
    board = [0] * ref.spec.holes
    board[0] = 256                               # more seeds than a lane holds
    wide = format_position(PositionData(ref.spec, board, 0, [0, 0], list(ref.owners), 0))
    assert _core._working_form(_core.Position.from_text(wide)) == many


def test_the_named_games_forced_onto_the_variants_halves():
    """The tests' switch (on_every_form) moves the named Katro and Katra Mpantsaka
    games onto the variants' halves; Goré and Djenon-aboure keep their own lanes."""
    forms = {"katro": "variant_halves", "katro-4x4": "variant_halves",
             "katra-mpantsaka-simplified": "variant_halves", "gore": "gore",
             "djenon-aboure": "djenon"}
    previous = _core._set_variant_halves(True)
    try:
        for game_id, form in forms.items():
            assert _core._working_form(_core.Position.initial(game_id)) == form, game_id
    finally:
        _core._set_variant_halves(previous)
    assert _core._working_form(_core.Position.initial("katro-4x4")) == "katro_4x4"


def solved_with_a_small_table(game_id, max_plies=None):
    budget = {"nodes": 3_000_000} if max_plies is None else {"max_plies": max_plies}
    result = katra.solve(game_id, tt_bits=12, **budget)
    return result.nodes, result.describe(), result.best_move


@pytest.mark.parametrize("game_id, winner", [("katro-4x5-s3", "South"), ("katro-6x4-s2", "North")])
def test_a_variant_keys_its_tables_alike_on_both_its_forms(game_id, winner):
    """df-pn and the bounded solver with a table far too small for the proof
    (entries replaced all the time) take the same nodes to the same result on
    the variants' halves as on the int form: both key a position alike, so
    the node counts of the table of solved variants hold on either."""
    assert on_every_form(solved_with_a_small_table, game_id)[1].startswith(f"{winner} wins within")
    assert on_every_form(solved_with_a_small_table, game_id, 9)[1] == "no result within 9 plies"


def test_the_draws_cover_the_ranges():
    """The slow run's variants reach every family's row counts, its narrowest and
    widest boards, 1 seed a hole and, with the corners, the most a board takes."""
    for (family, _), specs, ends in zip(FAMILIES, drawn_variants(SLOW_VARIANTS), corners(),
                                        strict=True):
        assert {spec.rows for spec in specs} == set(VARIANT_ROWS[family])
        widths = {spec.cols for spec in specs + ends}
        assert min(VARIANT_COLS[(family, r)][0] for r in VARIANT_ROWS[family]) in widths
        assert max(VARIANT_COLS[(family, r)][1] for r in VARIANT_ROWS[family]) in widths
        assert 1 in {spec.seeds_per_hole for spec in specs}
        assert max(spec.seeds_per_hole for spec in specs) >= 10
        for spec in ends:
            most = MAX_TOTAL_SEEDS // spec.holes
            assert spec.seeds_per_hole in (1, most)
            assert spec.holes * (spec.seeds_per_hole + 1) > MAX_TOTAL_SEEDS or \
                spec.seeds_per_hole == 1
