"""Helpers shared by the tests: random walks and the hand-worked rule tests' steps, the
command line in process and as a program, fresh interpreters, the core's two working
forms, and the brute-force searches the engine and the solver are checked against.

(The backend list and the ``impl``/``backend`` fixtures are in conftest.py.)
"""
import io
import logging
import math
import os
import random
import subprocess
import sys
import sysconfig
import textwrap
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings

import katra
from katra import _core, _reference
from katra._errors import IllegalMoveError
from katra._games import GORE, GORE_OFFER_BASE, GORE_PASS, KATRO, MPANTSAKA, game_by_id
from katra._reference import Position as RefPosition
from katra._text import PositionData, action_text, format_position, parse_action
from katra.api import MATE
from katra.api._backends import BACKENDS  # noqa: F401  ("core", "reference"), for the tests
from katra.testing._solved import few_seed_gore_position


def legal(impl, text):
    return impl.Position.from_text(text).legal_actions()


def after(impl, text, action):
    """The position after the legal ``action`` from ``text``."""
    pos = impl.Position.from_text(text)
    assert action in pos.legal_actions()
    pos.apply(action)
    return pos


def play(impl, before, move, expected_after):
    """Play ``move`` (move text) from ``before``; the result must be ``expected_after``."""
    game = before.split()[0]
    pos = impl.Position.from_text(before)
    action = parse_action(game_by_id(game), move)
    assert action in pos.legal_actions(), (before, move, pos.legal_actions())
    pos.apply(action)
    assert pos.text() == expected_after, (before, move)
    return pos


def assert_illegal(pos, action):
    """``apply`` raises IllegalMoveError and leaves the position as it was."""
    before = pos.text()
    with pytest.raises(IllegalMoveError):
        pos.apply(action)
    assert pos.text() == before


def random_walk(pos, plies, seed):
    """Push up to ``plies`` seeded random legal actions (stopping at the end of the game)
    on a ``katra.State`` or either backend's ``Position``; returns ``pos``."""
    return _walk(pos, plies, random.Random(seed))


def random_positions(game_id, count, seed, plies):
    """``count`` unfinished positions of ``game_id``, each ``plies`` seeded random moves
    from the start, or a number of moves drawn from ``plies`` when it is a range (a walk
    that ends the game is dropped and another drawn); from the reference."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        moves = plies if isinstance(plies, int) else rng.choice(plies)
        pos = _walk(RefPosition.initial(game_id), moves, rng)
        if not pos.is_terminal():
            found.append(pos.text())
    return found


def _walk(pos, plies, rng):
    for _ in range(plies):
        actions = pos.legal_actions()
        if not actions:
            break
        pos.push(rng.choice(actions))
    return pos


#: Never-ending moves (docs/rules.md §1.3), found by random play: (position, move), one
#: or more per relay game; the sowing needs more than 10,000 laps, so the move is
#: not legal (tests/test_never_ending.py checks it on both backends).
NEVER_ENDING = [
    ("katro-4x6 1,0,3,0,6,1/15,1,0,3,7,10/0,0,0,1,0,0/0,0,0,0,0,0 N", "e4"),
    ("katro-4x6 1,1,2,0,6,1/1,5,2,0,1,4/1,7,2,1,1,8/0,1,1,2,0,0 N", "b4"),
    ("katro-4x4 2,7,5,10/3,0,3,1/0,0,0,1/0,0,0,0 N", "c4"),
    ("katra-mpantsaka 0,1,4,4,1,3,3,0/1,3,0,0,0,1,3,3/1,5,0,1,2,2,3,5/1,0,4,1,4,1,2,5 S",
     "g2+"),
    ("katra-mpantsaka-simplified 4,1,2,1,2,0,1,7/3,2,0,2,1,5,2,1/0,0,0,0,0,12,0,0/"
     "0,7,3,1,0,5,1,1 N", "b3+"),
    ("katra-mpantsaka-simplified 1,1,1,1,1,1,0,0/1,0,0,0,0,1,2,2/2,4,1,0,1,1,6,9/"
     "0,9,0,2,1,10,5,1 S", "d1-"),
]


def check_examples(check, examples, *strategies):
    """Call ``check`` on ``examples`` derandomized draws of ``strategies`` (Hypothesis:
    the same draws on every run, shrunk on failure, never timed)."""
    settings(max_examples=examples, deadline=None, derandomize=True,
             suppress_health_check=[HealthCheck.too_slow])(given(*strategies)(check))()


def quick_and_slow(quick, slow):
    """The two runs of a test that scales with a count (seeds, examples, games):
    ``quick`` in the default run, ``slow`` under the slow marker (``-m slow``)."""
    return [pytest.param(quick, id="quick"),
            pytest.param(slow, id="slow", marks=pytest.mark.slow)]


@contextmanager
def local_dask_client():
    """A dask ``Client`` of a ``distributed.LocalCluster`` on 127.0.0.1: two one-thread
    worker processes, no dashboard; closed on leaving.  ``distributed`` is imported here,
    not at collection, so only the xdist worker that runs a dask test pays for it; the
    ``test`` extra installs it (``pip install ".[test]"``): a missing dask fails, not skips."""
    import distributed
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       silence_logs=logging.ERROR)
    client = distributed.Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def katra_in_process(*args, stdin="", cwd=None):
    """``katra ARGS`` run in this process: katra.cli.main (the installed command's parser,
    commands and error handling) reading ``stdin``, with its output caught, none of the
    three streams a terminal.  A ``subprocess.CompletedProcess`` as ``katra_program``'s,
    without the half second of CPU a new interpreter costs."""
    from katra.cli import main
    out, err = io.StringIO(), io.StringIO()
    here, real_stdin = os.getcwd(), sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        if cwd is not None:
            os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main([str(arg) for arg in args])
            except SystemExit as exc:      # --help, --version: argparse exits
                status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        sys.stdin = real_stdin
        os.chdir(here)
    return subprocess.CompletedProcess(args, status, out.getvalue(), err.getvalue())


def katra_program(*args, stdin=None, cwd=None, timeout=120, env=None):
    """``python -m katra ARGS`` as a program of its own, as people run it."""
    return subprocess.run([sys.executable, "-m", "katra", *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)


# ---------------------------------------------------------------- fresh interpreters

def run_python(code):
    """Run code in a fresh interpreter; (returncode, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


#: The smallest thread stack Python allows.  On a sanitizer build (.ci/run sets
#: KATRA_SANITIZER) every frame carries redzones and is compiled at -O1, several
#: times larger: there the deep searches run under the sanitizer with room to
#: spare, and the 32 KiB bound is the release build's.  SANITIZED: also, memory
#: freed goes to AddressSanitizer's quarantine, so the resident size cannot show a free.
SANITIZED = bool(os.environ.get("KATRA_SANITIZER"))
SMALL_STACK = 256 * 1024 if SANITIZED else 32 * 1024


# ---------------------------------------------------------------- the core's two working forms

def position_text(game_id, board, to_move=0, stores=(0, 0), owners=None):
    spec = game_by_id(game_id)
    data = PositionData(spec, list(board), to_move, list(stores),
                        list(owners) if owners is not None else spec.initial_owners(), 0)
    return format_position(data)


def on_every_form(job, *args):
    """job(*args) on every working form of the core: the game's own lanes, the
    variants' halves and the 16-bit halves (Katro's and Katra Mpantsaka's games
    forced onto each, as a variant of their shape, or a position of more than
    255 seeds, runs; left out when the first position or game id among args is
    of another family, which keeps its own lanes; a board of more than 12 holes
    a player stays off the 16-bit halves) and the int form: equal, returned."""
    lanes = _core._set_lanes(True)
    halves = _core._set_variant_halves(False)
    halves16 = _core._set_halves16(False)
    try:
        packed = job(*args)
        _core._set_variant_halves(True)
        variant = job(*args) if on_the_halves(args) else packed
        _core._set_variant_halves(False)
        _core._set_halves16(True)
        sixteen = job(*args) if on_the_halves(args, "halves16") else packed
        _core._set_halves16(False)
        _core._set_lanes(False)
        plain = job(*args)
    finally:
        _core._set_lanes(lanes)
        _core._set_variant_halves(halves)
        _core._set_halves16(halves16)
    assert packed == variant, ("variants' halves", job.__name__, args)
    assert packed == sixteen, ("16-bit halves", job.__name__, args)
    assert packed == plain, ("int form", job.__name__, args)
    return packed


def on_the_halves(args, form=None) -> bool:
    """May a job over args run on the halves: is the game of the first position,
    position text or game id among them Katro's or Katra Mpantsaka's (True when
    none is found), and does its start run on form (a working form's name, as
    _core._working_form gives it, under the switches now set) if given?"""
    for arg in args:
        if isinstance(arg, _core.Position):
            game_id = arg.game_id
        elif isinstance(arg, katra.State):
            game_id = arg.game.id
        elif isinstance(arg, str):
            game_id = arg.split()[0]
        else:
            continue
        return (game_by_id(game_id).family in (KATRO, MPANTSAKA)
                and (form is None
                     or _core._working_form(_core.Position.initial(game_id)) == form))
    return True


# ---------------------------------------------------------------- the core against the reference

def assert_backends_agree(core, ref, history, where=""):
    """Compare everything observable of a core and a reference position; return
    the reference's legal actions.  history (actions) and where name the place."""
    spec = game_by_id(ref.game_id)
    moves = " ".join(action_text(spec, a) for a in history)
    context = f"{where}after moves [{moves}]"
    assert core.text() == ref.text(), context
    legal = ref.legal_actions()
    assert core.legal_actions() == legal, f"legal actions differ {context}"
    assert core.is_terminal() == (not legal), context
    # outcome() is None exactly when legal actions exist; compare it when terminal.
    assert core.outcome() == (None if legal else ref.outcome()), f"outcome differs {context}"
    assert (core.board, core.owners, tuple(core.stores), core.to_move, core.pending_offer) == (
        ref.board, ref.owners, tuple(ref.stores), ref.to_move, ref.pending_offer), context
    assert core.zobrist() == ref.zobrist(), context
    return legal


def walk_both(text, seed, max_plies, where=""):
    """One seeded random game from the position text in both backends, compared at
    every ply (the move history is printed at the first difference); the plies played."""
    core, ref = _core.Position.from_text(text), _reference.Position.from_text(text)
    rng = random.Random(seed)
    history = []
    where = f"{where}seed {seed} from {text!r}: "
    while True:
        actions = assert_backends_agree(core, ref, history, where)
        if not actions or len(history) == max_plies:
            return len(history)
        action = rng.choice(actions)
        history.append(action)
        core.apply(action)
        ref.apply(action)


def board_actions(spec):
    """The actions that name only holes of the board, every Goré offer of 1 to 3 of
    them included (Goré keeps its 267 actions on every size, docs/rules.md §7.2;
    the others are never legal)."""
    if spec.family != GORE:
        return list(range(spec.num_actions))
    offers = [GORE_OFFER_BASE + mask for mask in range(1, 1 << spec.holes)
              if bin(mask).count("1") <= 3]
    return [*range(spec.holes), *offers, *range(GORE_PASS, spec.num_actions)]


def compare_on_every_action(text):
    """Both backends on every board action of a position: legality, lap counts,
    children, and a refused action changing nothing."""
    ref, core = _reference.Position.from_text(text), _core.Position.from_text(text)
    assert_backends_agree(core, ref, [], f"{text!r}: ")
    legal = ref.legal_actions()
    for action in board_actions(game_by_id(ref.game_id)):
        assert core.is_legal(action) == (action in legal), (text, action)
        try:
            expected = ref.lap_count(action, 3)
        except IllegalMoveError:
            with pytest.raises(IllegalMoveError):
                core.lap_count(action, 3)
        else:
            assert core.lap_count(action, 3) == expected, (text, action)
        if action in legal:
            ref_child, core_child = ref.copy(), core.copy()
            ref_child.apply(action)
            core_child.apply(action)
            assert_backends_agree(core_child, ref_child, [action], f"{text!r}: ")
        else:
            with pytest.raises(IllegalMoveError):
                core.apply(action)
            assert core.text() == text


# ---------------------------------------------------------------- the search's brute force
# (docs/engine.md: the documented evaluation, and negamax over the reference)

W_SEED, W_STORE, W_HOLE, W_MOBILITY = 4, 4, 2, 1


def mobility(pos, p):
    """docs/engine.md: origin holes player p could sow from (lap limit, offers ignored)."""
    spec = game_by_id(pos.game_id)
    board, R, C = pos.board, spec.rows, spec.cols

    def row(r):
        return board[r * C:(r + 1) * C]

    def row_at_depth(d):          # d = 0 outer, rows // 2 - 1 inner
        return row(d if p == 0 else R - 1 - d)

    def nonempty(cells):
        return sum(1 for x in cells if x)

    if spec.family == "katro":
        for d in range(R // 2):
            n = nonempty(row_at_depth(d))
            if n:
                return n
        return 0
    if spec.family == "mpantsaka":
        if spec.simplified:
            return nonempty(row_at_depth(0)) + nonempty(row_at_depth(1))
        return nonempty(row_at_depth(1)) or nonempty(row_at_depth(0))
    if spec.family == "gore":
        return sum(1 for x, o in zip(board, pos.owners) if o == p and x)
    return sum(1 for x in row(p) if x >= 2)     # djenon


def evaluate(pos):
    spec = game_by_id(pos.game_id)
    me = pos.to_move
    held = sum(x if o == me else -x for x, o in zip(pos.board, pos.owners))
    mob = W_MOBILITY * (mobility(pos, me) - mobility(pos, 1 - me))
    if spec.family in ("katro", "mpantsaka"):
        return W_SEED * held + mob
    stores = pos.stores
    return W_STORE * (stores[me] - stores[1 - me]) + W_HOLE * held + mob


def negamax(pos, depth, ply=0):
    """Plain negamax over the reference: no pruning, no table."""
    actions = pos.legal_actions()
    if not actions:
        winner = pos.outcome()[0]
        if winner == -1:
            return 0
        return MATE - ply if winner == pos.to_move else -(MATE - ply)
    if depth == 0:
        return evaluate(pos)
    best = -math.inf
    for action in actions:
        child = pos.copy()
        child.apply(action)
        v = negamax(child, depth - 1, ply + 1)
        best = max(best, v if child.to_move == pos.to_move else -v)
    return best


def child_value(pos, action, depth):
    child = pos.copy()
    child.apply(action)
    v = negamax(child, depth - 1, 1)
    return v if child.to_move == pos.to_move else -v


def random_text(game_id, plies, seed):
    return random_walk(RefPosition.initial(game_id), plies, seed).text()


# Positions the search must solve, worked by hand from docs/rules.md.

# Katro 4x4, South to move: a1 (1 seed) lands in b1 (1 -> 2).  South's inner row
# is empty, so row 1 is the innermost non-empty row; North's innermost non-empty
# row is row 3 and b3 holds 2: capture b1 + b3 = 4 seeds, sown c1 d1 d2 c2 (c2
# was empty: the move ends).  North has no seed left and loses (§2.4).  The
# other move, b1, lands in empty c1 and captures nothing.
KATRO_WIN = "katro-4x4 0,0,0,0/0,2,0,0/0,0,0,0/1,1,0,0 S"

# Djenon-aboure, South to move (legal: c1, e1).  e1 (4 seeds): e1, f1, f2, e2;
# e2 held 3 -> 4: captured; backwards f2 now holds 2: captured; f1 holds 1:
# stop.  4 + 2 = 6 seeds into South's store (§5.2).  Then North must pass (c1
# still holds 2), South plays c1, every hole holds <= 1: South 21 + 5 = 26,
# North 22.  Three plies, a win.
DJENON_CAPTURE = "djenon-aboure 0,0,0,0,3,1/1,0,2,0,4,0 S stores=15,22"

# Goré, South to move (legal: a1, d1; no offers: North's store is empty).
# d1 (3 seeds) sows d2 c2 b2; b2 is North's and holds 1 -> 2: captured; forward
# a2 holds 2: captured, then a1 (3) stops the run; backward c2 holds 4, d2 2:
# captured, then d1 (0) stops it.  2 + 2 + 4 + 2 = 10 seeds (§4.3).  North owns
# no seed and passes, South sows a1 (b1 c1 d1 get 1 each) and every hole holds
# < 3: South 10 + 3 = 13, North 0.  Three plies, a win.
GORE_CHAIN = "gore 2,1,3,1/3,0,0,3 S stores=0,0"


# ---------------------------------------------------------------- the solver's brute force
# (docs/rules.md §6.3 word for word: lo_N, hi_N, the distance, the best move)

LOSS, DRAW, WIN = -1, 0, 1


@cache
def value(text, plies, player, unfinished):
    """The outcome player can force from text within plies plies, an unfinished
    line counting as `unfinished` for player (lo_N: LOSS, hi_N: WIN)."""
    pos = _reference.Position.from_text(text)
    legal = pos.legal_actions()
    if not legal:
        winner = pos.outcome()[0]
        return DRAW if winner == -1 else WIN if winner == player else LOSS
    if plies == 0:
        return unfinished
    values = []
    for action in legal:
        child = pos.copy(stack=False)
        child.apply(action)
        values.append(value(child.text(), plies - 1, player, unfinished))
    return max(values) if pos.to_move == player else min(values)


def forces(text, player, target, plies):
    return plies >= 0 and value(text, plies, player, LOSS) >= target


def brute_solve(text, max_plies):
    """(outcome for the player to move, distance) by §6.3, or (None, None)."""
    mover = _reference.Position.from_text(text).to_move
    for n in range(max_plies + 1):
        lo, hi = value(text, n, mover, LOSS), value(text, n, mover, WIN)
        if lo == hi:
            return {WIN: "win", LOSS: "loss", DRAW: "draw"}[lo], n
    return None, None


def least_bound(text, player, target, max_plies):
    return next(n for n in range(max_plies + 1) if forces(text, player, target, n))


def brute_best(text, outcome, plies):
    """The best move of §6.3: the least action keeping the deciding bound d at d - 1."""
    pos = _reference.Position.from_text(text)
    mover = pos.to_move
    if outcome == "win":
        player, target, d = mover, WIN, plies
    elif outcome == "loss":
        player, target, d = 1 - mover, WIN, plies
    else:
        player, target = mover, DRAW
        d = least_bound(text, mover, DRAW, plies)
    for action in pos.legal_actions():
        child = pos.copy(stack=False)
        child.apply(action)
        if forces(child.text(), player, target, d - 1) and not forces(child.text(), player,
                                                                      target, d - 2):
            return action
    raise AssertionError("no best move")


def brute_line(text, max_plies):
    line = []
    while True:
        outcome, plies = brute_solve(text, max_plies)
        if outcome is None or plies == 0:
            return line
        best = brute_best(text, outcome, plies)
        line.append(best)
        pos = _reference.Position.from_text(text)
        pos.apply(best)
        text, max_plies = pos.text(), max_plies - 1


def gore_endgame(rng):
    """A random Goré position with few seeds on the board (random Goré games seldom
    end, §4.5), and stores mostly too small for offers (which can prolong any game)."""
    small_stores = (0, 1, 2, 3, 4, 5) * 2 + (6, 12, 20)
    return few_seed_gore_position(rng.choice, stores=small_stores, backend="reference")


def endgame_positions(game_id, count, seed, rng_plies=400):
    """Positions a few plies before the end of seeded random games (or mid-game
    positions of games that do not end), from the reference."""
    rng = random.Random(seed)
    found = []
    if game_id == "gore":
        return [gore_endgame(rng) for _ in range(count)]
    while len(found) < count:
        pos = _reference.Position.initial(game_id)
        seen = [pos.text()]
        for _ in range(rng_plies):
            legal = pos.legal_actions()
            if not legal:
                break
            pos.apply(rng.choice(legal))
            seen.append(pos.text())
        back = rng.randint(2, 9)
        candidates = [t for t in seen[-back - 1:-1]
                      if not _reference.Position.from_text(t).is_terminal()]
        if candidates:
            found.append(candidates[0])
    return found


# Bounds the brute force gets through quickly (the branching differs by game).
BRUTE_PLIES = {"katro": 4, "katro-4x6": 4, "katro-4x4": 5, "katra-mpantsaka": 3,
               "katra-mpantsaka-simplified": 3, "gore": 4, "djenon-aboure": 6}


def check_against_brute(text, max_plies):
    result = katra.solve(text, max_plies)
    outcome, plies = brute_solve(text, max_plies)
    assert (result.outcome, result.plies) == (outcome, plies), text
    if outcome is None:
        assert result.best_action == -1 and result.pv == () and result.best_move == ""
        return result
    spec = game_by_id(text.split(" ")[0])
    assert result.best_action == brute_best(text, outcome, plies), text
    assert result.best_move == action_text(spec, result.best_action)
    assert list(result.pv) == brute_line(text, max_plies), text
    assert result.max_plies == plies if plies else True
    return result


def build_tools_missing():
    """What building an extension here lacks (a sentence), or None."""
    missing = []
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    try:
        found = subprocess.run([*compiler.split(), "--version"], capture_output=True,
                               timeout=60).returncode == 0
    except OSError:
        found = False
    if not found:
        missing.append(f"a C compiler ({compiler!r} does not run)")
    for module in ("Cython", "setuptools"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    return " and ".join(missing) or None
