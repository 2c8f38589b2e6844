"""Djenon-aboure's endgame tables (docs/tables.md) against the rulebook's
definitions: an independent value iteration over the reference on the
smallest layers, the brute force of tests/helpers.py, and the bounded solver
and df-pn on sampled boards of every layer built; bad files and arguments."""
import random
import zlib

import pytest

import katra
from helpers import forces, katra_in_process, position_text, quick_and_slow
from katra import _core, _reference
from katra.api import MATE, _tables

GAME = "djenon-aboure"
TOTAL = 48
BUILT = 8                      # the layers the tests build (0..8: 125,970 boards)


@pytest.fixture(scope="module")
def layers():
    values, plies, infos = _tables.build_layers(GAME, BUILT)
    return _core.EndgameTables(values, plies), infos


def text_of(lanes, to_move, stores):
    """The position of board lanes (0..5: a1..f1, 6..11: f2..a2, sowing order)."""
    board = list(lanes[0:6]) + [lanes[11 - i] for i in range(6)]
    return position_text(GAME, board, to_move, stores)


def boards(k, holes=12):
    if holes == 1:
        yield (k,)
        return
    for first in range(k + 1):
        for rest in boards(k - first, holes - 1):
            yield (first, *rest)


def test_layer_sizes(layers):
    _, infos = layers
    assert [info.boards for info in infos] == [1, 12, 78, 364, 1365, 4368, 12376, 31824, 75582]
    assert [_core._table_boards(k) for k in (10, 12, 16)] == [352716, 1352078, 13037895]


# ---------------------------------------------------------------- an independent brute force

def reference_values(max_seeds):
    """Every board of at most max_seeds seeds, both players to move, valued on
    the reference by docs/rules.md §6.3 directly: V_n (what each player forces
    with the game over within n plies, None: nothing) by n = 0, 1, 2, ... over
    the whole set at once (no layers, no symmetry, no ranks) until it stops
    changing; with the n at which each value was reached (its least plies)."""
    nodes = {}
    for k in range(max_seeds + 1):
        for lanes in boards(k):
            for mover in (0, 1):
                pos = _reference.Position.from_text(text_of(lanes, mover, (0, TOTAL - k)))
                kids = []
                for action in pos.legal_actions():
                    child = pos.copy(stack=False)
                    child.apply(action)
                    taken = child.stores[mover] - pos.stores[mover]
                    kids.append((child.text().split(" stores")[0], taken))
                south = sum(lanes[0:6])
                nodes[pos.text().split(" stores")[0]] = (mover, k, kids, south)
    value = {}                 # key -> [South's best, North's best] (seeds of the board)
    reached = {}
    for key, (_mover, k, kids, south) in nodes.items():
        value[key] = [south, k - south] if not kids else [None, None]
        reached[key] = [0, 0]
    n = 0
    while True:
        n += 1
        new = {}
        for key, (mover, _k, kids, _south) in nodes.items():
            if not kids:
                new[key] = value[key]
                continue
            best = []
            for player in (0, 1):
                options = [None if value[child][player] is None else
                           value[child][player] + (taken if player == mover else 0)
                           for child, taken in kids]
                if player == mover:
                    found = [v for v in options if v is not None]
                    best.append(max(found) if found else None)
                else:
                    best.append(None if None in options else min(options))
            new[key] = best
        changed = False
        for key in nodes:
            for player in (0, 1):
                if new[key][player] != value[key][player]:
                    reached[key][player] = n
                    changed = True
        value = new
        if not changed:
            return nodes, value, reached


def test_smallest_layers_by_brute_force(layers):
    """Layers 0..4 (1,820 boards, each with either player to move): the table's
    values are the reference's, and its plies never undercut the least."""
    table, _ = layers
    nodes, value, reached = reference_values(4)
    for key, (mover, k, _kids, _south) in nodes.items():
        got = table.values(_core.Position.from_text(f"{key} stores=0,{TOTAL - k}"))
        mine, theirs = value[key][mover], value[key][1 - mover]
        assert got[:2] == (mine, theirs), key
        for v, plies, least in ((mine, got[2], reached[key][mover]),
                                (theirs, got[3], reached[key][1 - mover])):
            if v is not None:
                assert plies >= least, key


@pytest.mark.parametrize("count", quick_and_slow(40, 400))
def test_plies_against_the_brute_force(layers, count):
    """On boards of 2..6 seeds: what the table says is forced is forced within
    its plies by the brute force of tests/helpers.py (the rulebook's lo_N)."""
    table, _ = layers
    rng = random.Random(5)
    for _ in range(count):
        k = rng.randint(2, 6)
        lanes = random_board(rng, k)
        mover = rng.randint(0, 1)
        for player in (0, 1):
            for stores in boundary_stores(table, lanes, mover, player, k):
                text = text_of(lanes, mover, stores)
                pos = _core.Position.from_text(text)
                for target in (0, 1):
                    status, plies = table.probe(pos, player, target)
                    if status == 1 and plies <= 10:
                        assert forces(text, player, target, plies), (text, player, target)


# ---------------------------------------------------------------- the solvers agree

def random_board(rng, k):
    lanes = [0] * 12
    for _ in range(k):
        lanes[rng.randrange(12)] += 1
    return lanes


def boundary_stores(table, lanes, mover, player, k):
    """Stores that put player's forced share v of the board right at a draw,
    and one capture above and below it (those of the 48 seeds that fit)."""
    pos = _core.Position.from_text(text_of(lanes, mover, (0, TOTAL - k)))
    got = table.values(pos)
    v = got[0] if player == mover else got[1]
    v = k // 2 if v is None else v
    out = []
    for shift in (0, 2, -2):
        gap = 2 * v - k + shift              # store_other - store_player at a draw
        mine = (TOTAL - k - gap) // 2
        if 0 <= mine <= TOTAL - k and 0 <= TOTAL - k - mine:
            out.append((mine, TOTAL - k - mine) if player == 0 else (TOTAL - k - mine, mine))
    return out


@pytest.mark.parametrize("count", quick_and_slow(150, 1500))
def test_sampled_boards_against_dfpn_and_the_bounded_solver(layers, count):
    """Boards of 2..8 seeds, each player, stores at and around the forced
    share: df-pn settles every question as the table answers it, and the
    bounded solver forces what the table says is forced within its plies."""
    table, _ = layers
    rng = random.Random(11)
    dfpn = _core.DfpnSolver(16)
    solver = _core.Solver()
    asked = forced = 0
    for _ in range(count):
        k = rng.randint(2, BUILT)
        lanes = random_board(rng, k)
        mover = rng.randint(0, 1)
        for player in (0, 1):
            for stores in boundary_stores(table, lanes, mover, player, k):
                pos = _core.Position.from_text(text_of(lanes, mover, stores))
                if pos.is_terminal():
                    continue
                for target in (0, 1):
                    status, plies = table.probe(pos, player, target)
                    got, _ = dfpn.prove(pos, player, target)
                    assert got == status, (pos.text(), player, target)
                    asked += 1
                    if status == 1:
                        forced += 1
                        assert solver.forces(pos, player, target, min(plies, 500))
    assert forced > asked // 4 and asked - forced > asked // 4


@pytest.mark.slow
def test_layers_up_to_12_against_dfpn():
    """Layers 9..12 (the slow run): 300 boards, each player, stores at and
    around the forced share, as test_sampled_boards_against_dfpn_and_the_bounded_solver."""
    values, plies, _ = _tables.build_layers(GAME, 12)
    table = _core.EndgameTables(values, plies)
    rng = random.Random(13)
    dfpn = _core.DfpnSolver(18)
    for _ in range(300):
        k = rng.randint(9, 12)
        lanes = random_board(rng, k)
        mover = rng.randint(0, 1)
        for player in (0, 1):
            for stores in boundary_stores(table, lanes, mover, player, k):
                pos = _core.Position.from_text(text_of(lanes, mover, stores))
                for target in (0, 1):
                    assert dfpn.prove(pos, player, target)[0] == table.probe(pos, player, target)[0]


# ---------------------------------------------------------------- files

@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "djenon-6.katra-tables"
    info = _tables.build_tables(GAME, 6, path)
    return path, info


def test_file_round_trip(table_file, layers):
    path, info = table_file
    assert info.bytes == path.stat().st_size and info.max_seeds == 6
    assert _tables.tables_info(path) == _tables.TablesInfo(
        GAME, 6, tuple(_tables.LayerInfo(x.seeds, x.boards, x.bytes) for x in info.layers),
        info.bytes)
    loaded = _tables.load_tables(path, GAME)
    table, _ = layers
    assert loaded.max_seeds == 6 and loaded.game_id == GAME
    rng = random.Random(3)
    for _ in range(300):
        k = rng.randint(0, 6)
        pos = _core.Position.from_text(text_of(random_board(rng, k), rng.randint(0, 1),
                                               (0, TOTAL - k)))
        assert loaded.values(pos) == table.values(pos)
    beyond = _core.Position.from_text(text_of([7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0, (20, 21)))
    assert loaded.values(beyond) is None and loaded.probe(beyond, 0, 1) == (-1, 0)


def rewritten(path, tmp_path, change):
    data = change(path.read_bytes())
    out = tmp_path / "changed"
    out.write_bytes(data)
    return out


def other_game(data):
    return data.replace(b'"game":"djenon-aboure"', b'"game":"gore"', 1)


def wrong_crc(data):
    head, sep, rest = data.partition(b'"crc32":')
    digits = rest.split(b"}", 1)
    return head + sep + str(int(digits[0]) ^ 1).encode() + b"}" + digits[1]


def flipped_layer(data):
    """A byte of the last layer's compressed stream changed (its check or zlib fails)."""
    return data[:-3] + bytes([data[-3] ^ 0x55]) + data[-2:]


@pytest.mark.parametrize("change, message", [
    (lambda d: d[:len(d) // 2], "truncated table file"),
    (lambda d: d[:-1], "truncated table file"),
    (lambda d: d[:10], "not a katra table file"),
    (lambda d: d + b"x", "damaged table file"),
    (lambda d: b"KATRA-TABLES 1\n{}\n", "damaged table file"),
    (other_game, "a table file for 'gore'"),
    (wrong_crc, "layer 0 fails its check"),
    (flipped_layer, "damaged table file (layer 6"),
    (lambda d: zlib.compress(d), "not a katra table file"),
])
def test_bad_files(table_file, tmp_path, change, message):
    """A file that is truncated, damaged or another game's is never read as a table."""
    bad = rewritten(table_file[0], tmp_path, change)
    with pytest.raises(katra.ArgumentError, match="^" + str(bad).replace(".", r"\.")) as info:
        _tables.load_tables(bad)
    assert message in str(info.value)


def test_missing_file_and_bad_arguments(tmp_path, table_file):
    with pytest.raises(katra.ArgumentError, match="no such table file"):
        _tables.load_tables(tmp_path / "none")
    with pytest.raises(katra.ArgumentError, match="for djenon-aboure, not katro"):
        _tables.load_tables(table_file[0], "katro")
    with pytest.raises(katra.ArgumentTypeError):
        _tables.load_tables(3)
    with pytest.raises(katra.ArgumentError, match="gore has no endgame tables"):
        _tables.build_tables("gore", 4, tmp_path / "g")
    with pytest.raises(katra.ArgumentError, match="no endgame tables for 'katro'"):
        _tables.build_tables("katro", 4, tmp_path / "k")
    with pytest.raises(katra.ArgumentError, match=r"max_seeds must be in 0\.\.16"):
        _tables.build_tables(GAME, 17, tmp_path / "k")
    with pytest.raises(katra.ArgumentTypeError):
        _tables.build_tables(GAME, True, tmp_path / "k")
    assert not list(tmp_path.iterdir())
    table = _tables.load_tables(table_file[0])
    with pytest.raises(katra.ArgumentError, match="Djenon-aboure's, not gore's"):
        table.values(_core.Position.initial("gore"))
    with pytest.raises(katra.ArgumentError, match="player must be"):
        table.probe(_core.Position.initial(GAME), 2, 0)
    with pytest.raises(katra.ArgumentTypeError):
        table.values(_reference.Position.initial(GAME))


def test_a_path_that_cannot_be_written_fails_before_the_build(tmp_path):
    """The .part file is opened first: a missing folder or a folder as the path is an
    ArgumentError naming the file, before any layer is built (16 seeds: a minute)."""
    layers = []
    for path in (tmp_path / "no" / "t", tmp_path):
        with pytest.raises(katra.ArgumentError, match="cannot write the table file"):
            _tables.build_tables(GAME, 16, path, progress=layers.append)
    with pytest.raises(katra.ArgumentTypeError, match="path must be a str or a path"):
        _tables.build_tables(GAME, 3, 7)
    assert layers == [] and list(tmp_path.iterdir()) == []


def test_an_interrupted_build_leaves_no_file(tmp_path):
    """cancel_jobs() (as Ctrl-C) stops a build inside a layer: JobCancelled, and
    neither the table nor its .part file is left."""
    import threading
    started, done = threading.Event(), threading.Event()

    def cancel_until_done():
        started.wait()
        while not done.wait(0.001):
            katra.cancel_jobs()

    def progress(layer):
        if layer.seeds == 9:         # the cancels start while layer 10 is being built
            started.set()

    canceller = threading.Thread(target=cancel_until_done)
    canceller.start()
    try:
        with pytest.raises(katra.JobCancelled):
            _tables.build_tables(GAME, 16, tmp_path / "t", progress=progress)
    finally:
        started.set()
        done.set()
        canceller.join()
    assert list(tmp_path.iterdir()) == []


def test_core_tables_check_their_layers():
    values, plies, _ = _tables.build_layers(GAME, 2)
    with pytest.raises(katra.ArgumentError, match="layer 2 must hold"):
        _core.EndgameTables(values, [*plies[:2], plies[2][:-2]])
    with pytest.raises(katra.ArgumentError, match="layer 1 must hold 24 values"):
        _core.EndgameTables(values[:2], [plies[0], plies[1] + b"x"])
    with pytest.raises(katra.ArgumentError, match="as many values as plies"):
        _core.EndgameTables(values, plies[:2])
    with pytest.raises(katra.ArgumentTypeError, match="must be bytes"):
        _core.EndgameTables([bytearray(v) for v in values], plies)
    with pytest.raises(katra.ArgumentError, match="needs the 2 layers below it"):
        _core._table_build_layer(2, values[:1], plies[:1])


# ---------------------------------------------------------------- the command line

def test_cli_build_and_info(tmp_path):
    out = tmp_path / "t"
    r = katra_in_process("tables", "build", GAME, "--max-seeds", "5", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "max seeds  5" in r.stdout
    assert "layer  5        4,368 boards        700 bytes" in r.stdout
    r = katra_in_process("tables", "info", str(out), "--json")
    assert r.returncode == 0
    record = __import__("json").loads(r.stdout)
    assert record["game"] == GAME and [x["boards"] for x in record["layers"]] == [
        1, 12, 78, 364, 1365, 4368]
    out.write_bytes(out.read_bytes()[:-5])
    r = katra_in_process("tables", "info", str(out))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "truncated table file" in r.stderr
    for args in (("build", "gore", "--max-seeds", "3", "--out", str(tmp_path / "g")),
                 ("build", GAME, "--max-seeds", "40", "--out", str(tmp_path / "g")),
                 ("info", str(tmp_path / "none")),
                 ("build", GAME, "--max-seeds", "3", "--out", str(tmp_path / "no" / "t")),
                 ("build", GAME, "--max-seeds", "3", "--out", str(tmp_path))):
        r = katra_in_process("tables", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, args


def test_cli_solve_reads_tables(tmp_path):
    """katra solve --tables FILE: the same value as without, fewer df-pn nodes; a
    file for another game, a missing one, or tables with --proof: one line, exit 2."""
    out = tmp_path / "t"
    assert katra_in_process("tables", "build", GAME, "--max-seeds", "8",
                            "--out", str(out)).returncode == 0
    text = "djenon-aboure 2,1,3,1,2,2/0,2,1,0,1,3 S stores=16,14"    # 18 on the board
    plain = katra_in_process("solve", text, "--json")
    tabled = katra_in_process("solve", text, "--json", "--tables", str(out))
    assert plain.returncode == tabled.returncode == 0, (plain.stderr, tabled.stderr)
    json = __import__("json")
    a, b = json.loads(plain.stdout), json.loads(tabled.stdout)
    assert a["outcome"] is not None and a["outcome"] == b["outcome"]
    assert b["nodes"] < a["nodes"]
    for args in (("gore", "--tables", str(out)), (text, "--tables", str(tmp_path / "none")),
                 (text, "--tables", str(out), "--proof", str(tmp_path / "p"))):
        r = katra_in_process("solve", *args)
        assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, (args, r.stderr)
    assert not (tmp_path / "p").exists()


# ---------------------------------------------------------------- the readers

def endgame(rng, seeds):
    """A Djenon-aboure position with seeds on the board (of 48), stores split at random."""
    lanes = random_board(rng, seeds)
    south = rng.randint(0, TOTAL - seeds)
    return text_of(lanes, rng.randint(0, 1), (south, TOTAL - seeds - south))


@pytest.mark.parametrize("count", quick_and_slow(30, 300))
def test_solvers_with_tables_give_the_same_results(layers, count):
    """Boards of 6..14 seeds (their descendants of at most 8 in the table): df-pn
    settles the same value with the tables, and the bounded solver returns the
    same outcome, distance, best move and line."""
    table, _ = layers
    rng = random.Random(23)
    done = 0
    while done < count:
        text = endgame(rng, rng.randint(6, 14))
        if _core.Position.from_text(text).is_terminal():
            continue
        done += 1
        plain, tabled = katra.solve(text), katra.solve(text, tables=table)
        assert tabled.outcome == plain.outcome, text
        exact = katra.solve(text, 40)
        assert exact.outcome == plain.outcome and tabled.plies >= exact.plies, text
        with_tables = katra.solve(text, 40, tables=table)
        assert (with_tables.outcome, with_tables.plies, with_tables.best_move, with_tables.pv) == (
            exact.outcome, exact.plies, exact.best_move, exact.pv), text
        assert with_tables.nodes <= exact.nodes


def test_engine_scores_what_the_tables_settle(layers):
    """Below the root a settled board scores as a finished game: at depth 1 the
    score's sign is the solved outcome."""
    table, _ = layers
    engine = katra.Engine(tables=table)
    rng = random.Random(29)
    seen = set()
    for _ in range(60):
        text = endgame(rng, rng.randint(3, BUILT))
        if _core.Position.from_text(text).is_terminal():
            continue
        outcome = katra.solve(text, 40).outcome
        score = engine.search(text, depth=1).score
        assert (score > MATE - 1000 if outcome == "win" else
                score < 1000 - MATE if outcome == "loss" else score == 0), text
        seen.add(outcome)
    assert seen == {"win", "loss", "draw"}


def test_readers_refuse_what_tables_cannot_do(layers):
    table, _ = layers
    with pytest.raises(katra.ArgumentError, match="not gore's"):
        katra.solve("gore", tables=table)
    with pytest.raises(katra.ArgumentError, match="no proof tree"):
        katra.solve(GAME, proof=__import__("io").StringIO(), tables=table)
    with pytest.raises(katra.ArgumentError, match="no proof tree"):
        katra.solve(GAME, 4, jobs=2, tables=table)
    with pytest.raises(katra.ArgumentTypeError, match="tables must be None"):
        katra.solve(GAME, tables="djenon.katra-tables")
    with pytest.raises(katra.ArgumentTypeError, match="tables must be None"):
        katra.Engine(tables=3)
    with pytest.raises(katra.ArgumentTypeError, match="tables must be None"):
        _core.DfpnSolver(16, object())
