"""``katra match``: the referee, its forfeits, results file, records, resume, bad input
and the conformance check (docs/match.md), against the test engines of tests/engines/.

The engines are small Python programs (tests/engines/*.py), each misbehaving in one
documented way; ``well_behaved.py`` plays a legal move at once, chosen from the
position's hash and its ``Seed`` option, so every game is the same on any machine.
"""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import katra
from helpers import katra_in_process, quick_and_slow
from interrupt_jobs import restore_sigint
from katra.match import EngineSpec, Standing, read_suite

ENGINES = Path(__file__).parent / "engines"
GAME = "katro-4x4"


def engine(script, *args, marker=None):
    """The command line of a test engine (``marker``: an extra word to find its process)."""
    words = [sys.executable, str(ENGINES / script), *map(str, args)]
    if marker is not None:
        words.append(str(marker))
    return " ".join(f"'{w}'" for w in words)


def well_behaved(seed, marker=None):
    return [engine("well_behaved.py", marker=marker), f"option.Seed={seed}", f"name=seed{seed}"]


def match(*args, cwd=None):
    flat = []
    for arg in args:
        if isinstance(arg, list):
            flat += ["--engine", *arg]
        else:
            flat.append(str(arg))
    return katra_in_process("match", *flat, cwd=cwd)


def read_results(path):
    lines = Path(path).read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def processes_with(marker, *more):
    """Pids of live processes whose command line holds ``marker`` (and every one of
    ``more``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
                status = (entry / "status").read_text()
            except OSError:
                continue
            if (all(str(m) in cmdline for m in (marker, *more))
                    and "\nState:\tZ" not in status):
                found.append(int(entry.name))
    return found


# ---------------------------------------------------------------- head to head

def test_head_to_head_results_records_and_table(tmp_path):
    results, records = tmp_path / "results.jsonl", tmp_path / "games.txt"
    done = match(GAME, well_behaved(1), well_behaved(2), "--games", 4, "--concurrency", 1,
                 "--results", results, "--records", records)
    assert done.returncode == 0, done.stderr
    header, games = read_results(results)
    assert header["format"] == "katra-match 1" and header["game"] == GAME
    assert header["games"] == 4 and [e["name"] for e in header["engines"]] == ["seed1", "seed2"]
    assert sorted(g["game"] for g in games) == [0, 1, 2, 3]
    # pairs: one opening each, colours swapped
    by_number = {g["game"]: g for g in games}
    for j in (0, 1):
        first, second = by_number[2 * j], by_number[2 * j + 1]
        assert first["opening"] == second["opening"]
        assert (first["south"], first["north"]) == (0, 1)
        assert (second["south"], second["north"]) == (1, 0)
    for g in games:
        # every game ended by the rules: replaying its moves gives its result
        state = katra.State.from_text(g["opening"])
        for move in g["moves"].split():
            state.push(move)
        assert g["termination"] == "rules" and state.outcome().result() == g["result"]
        assert g["plies"] == len(g["moves"].split())
    wins = sum((g["result"] == "1-0") == (g["south"] == 0) and g["result"] != "1/2-1/2"
               for g in games)
    draws = sum(g["result"] == "1/2-1/2" for g in games)
    assert f"seed1: W {wins}  D {draws}  L {4 - wins - draws}" in done.stdout
    assert "seed1 vs seed2 (katro-4x4)" in done.stdout
    # records: one per game, read back by the record reader and by katra replay
    states = katra.read_records(records.read_text())
    assert len(states) == 4
    shown = katra_in_process("replay", records, "--game", 2, "--ply", 0)
    assert shown.returncode == 0, shown.stderr
    assert "seed2" in shown.stdout and "seed1" in shown.stdout


@pytest.mark.parametrize("games", quick_and_slow(6, 400))
def test_json_output_and_pentanomial(tmp_path, games):
    path = tmp_path / "r.jsonl"
    done = match("katra-mpantsaka", ["katra:greedy", "name=greedy"],
                 ["katra:random:seed=4", "name=random"], "--games", games, "--concurrency", 2,
                 "--max-plies", 60, "--results", path, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    pairing = report["pairings"][0]
    _, entries = read_results(path)
    unfinished = sum(e["result"] == "*" for e in entries)
    pairs_with_one = {e["pair"] for e in entries if e["result"] == "*"}
    assert pairing["games"] == games and pairing["unfinished"] == unfinished
    assert sum(pairing["pentanomial"]) == games // 2 - len(pairs_with_one)
    assert pairing["wins"] + pairing["draws"] + pairing["losses"] == games - unfinished
    assert report["engines"] == ["greedy", "random"] and report["played"] == games


@pytest.mark.parametrize("engines", [
    pytest.param((["katra:alphabeta", "name=a"], ["katra:alphabeta:tt_bits=10", "name=b"]),
                 id="built-in"),
    pytest.param((well_behaved(5), well_behaved(6)), id="programs", marks=pytest.mark.slow)])
def test_concurrency_does_not_change_the_games(tmp_path, engines):
    runs = []
    for concurrency in (1, 2):
        path = tmp_path / f"r{concurrency}.jsonl"
        done = match(GAME, *engines, "--games", 4, "--nodes", 200,
                     "--concurrency", concurrency, "--results", path)
        assert done.returncode == 0, done.stderr
        _, games = read_results(path)
        runs.append(sorted((g["game"], g["moves"], g["result"]) for g in games))
    assert runs[0] == runs[1]


def test_ply_limit_leaves_games_unfinished(tmp_path):
    path = tmp_path / "r.jsonl"
    done = match(GAME, well_behaved(1), well_behaved(2), "--games", 2, "--max-plies", 3,
                 "--concurrency", 1, "--results", path, "--json")
    assert done.returncode == 0, done.stderr
    _, games = read_results(path)
    assert [g["result"] for g in games] == ["*", "*"]
    assert all(g["termination"] == "ply limit" and g["plies"] == 3 for g in games)
    pairing = json.loads(done.stdout)["pairings"][0]
    assert (pairing["wins"], pairing["draws"], pairing["losses"]) == (0, 0, 0)
    assert pairing["unfinished"] == 2 and pairing["pentanomial"] == [0, 0, 0, 0, 0]


# ---------------------------------------------------------------- forfeits

FAULTY = [
    # script, its argument, the termination, a word of the reason, the line recorded
    ("illegal_move.py", 1, "illegal move", "not a legal move", "bestmove "),
    ("crash.py", 1, "crash", "exited (status 3)", None),
    ("garbage.py", 1, "unreadable line", "thinking hard", "thinking hard..."),
    ("error_reply.py", 1, "error reply", "error cannot read", "error cannot read the position"),
]


@pytest.mark.parametrize("script, at, termination, words, line", FAULTY,
                         ids=[f[0] for f in FAULTY])
def test_a_fault_loses_the_game_and_the_match_goes_on(tmp_path, script, at, termination,
                                                      words, line):
    path = tmp_path / "r.jsonl"
    faulty = [engine(script, at), "name=faulty"]
    done = match(GAME, faulty, well_behaved(1), "--games", 2, "--concurrency", 1,
                 "--results", path, "--records", tmp_path / "g.txt")
    assert done.returncode == 0, done.stderr
    _, games = read_results(path)
    assert len(games) == 2  # the engine was restarted for the second game
    for g in games:
        side = 0 if g["south"] == 0 else 1
        assert g["termination"] == termination and g["faulty"] == side
        assert g["result"] == ("0-1" if side == 0 else "1-0")
        assert words in g["reason"]
        if line is None:
            assert g["line"] is None
        else:
            assert g["line"].startswith(line)
        # the position of the fault is the game's end: the faulty engine was to move
        state = katra.State.from_text(g["opening"])
        for move in g["moves"].split():
            state.push(move)
        assert state.to_move == side and not state.is_terminal()
    assert f"faulty: {termination} 2" in done.stdout
    recorded = Path(tmp_path / "g.txt").read_text()
    assert f"reason: {('South', 'North')[games[0]['faulty']]}" in recorded


def test_silence_is_a_time_forfeit_under_movetime(tmp_path):
    path = tmp_path / "r.jsonl"
    done = match(GAME, [engine("silent.py", 1), "name=silent"], well_behaved(1), "--games", 2,
                 "--movetime", "0.01", "--timemargin", "1", "--concurrency", 1,
                 "--results", path)
    assert done.returncode == 0, done.stderr
    _, games = read_results(path)
    assert [g["termination"] for g in games] == ["time forfeit"] * 2
    # a margin of a second: the well-behaved engine, North in one game, is never late
    # even on a loaded machine
    assert all("no bestmove within 1.01 s" in g["reason"] for g in games)


def test_silence_without_a_clock_hits_the_timeout(tmp_path):
    path = tmp_path / "r.jsonl"
    done = match(GAME, [engine("silent.py", 2), "name=silent"], well_behaved(1), "--games", 1,
                 "--timeout", "0.2", "--results", path)
    assert done.returncode == 0, done.stderr
    _, (game,) = read_results(path)
    assert game["termination"] == "no reply" and game["faulty"] == 0


def test_overtime_loses_on_time(tmp_path):
    path = tmp_path / "r.jsonl"
    done = match(GAME, [engine("overtime.py", 1), "name=slow"], well_behaved(1), "--games", 1,
                 "--tc", "0.1+0.01", "--timemargin", "0.05", "--results", path)
    assert done.returncode == 0, done.stderr
    _, (game,) = read_results(path)
    assert game["termination"] == "time forfeit" and game["faulty"] == 0
    assert game["plies"] <= 1 and "no bestmove within 0.15 s" in game["reason"]


# ---------------------------------------------------------------- resume

def test_resume_plays_only_the_missing_games(tmp_path):
    path = tmp_path / "r.jsonl"
    first = match(GAME, well_behaved(1), well_behaved(2), "--games", 2, "--results", path)
    assert first.returncode == 0, first.stderr
    again = match(GAME, well_behaved(1), well_behaved(2), "--games", 4, "--results", path,
                  "--resume", "--json")
    assert again.returncode == 0, again.stderr
    _, games = read_results(path)
    assert sorted(g["game"] for g in games) == [0, 1, 2, 3]
    assert json.loads(again.stdout)["played"] == 4
    # a new match on the same file without --resume, and another match with it: refused
    before = path.read_text()
    refused = match(GAME, well_behaved(1), well_behaved(2), "--results", path)
    assert refused.returncode == 2 and "--resume" in refused.stderr
    other = match(GAME, well_behaved(1), well_behaved(9), "--results", path, "--resume")
    assert other.returncode == 2 and len(other.stderr.splitlines()) == 1
    assert "another match" in other.stderr and "engines" in other.stderr
    assert path.read_text() == before


# ---------------------------------------------------------------- bad input

def test_bad_inputs_are_one_line_and_status_2(tmp_path):
    marker = tmp_path / "marker"
    suite = tmp_path / "bad.openings"
    suite.write_text("katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\nnot a position\n")
    cases = [
        ([GAME, ["/nonexistent/engine"], well_behaved(1)], "cannot be started"),
        ([GAME, [engine("slow_handshake.py", 600, marker=marker)], well_behaved(1),
          "--handshake-timeout", "0.3"], "handshake"),
        (["no-such-game", well_behaved(1), well_behaved(2)], "no-such-game"),
        ([GAME, well_behaved(1), well_behaved(2), "--openings", suite], "line 2"),
        ([GAME, well_behaved(1), well_behaved(2), "--tc", "fast"], "--tc"),
        ([GAME, well_behaved(1), well_behaved(2), "--sprt", "elo0=5,elo1=0"], "elo0 < elo1"),
        ([GAME, well_behaved(1), [engine("well_behaved.py"), "option.Hash=8"]],
         "no option 'Hash'"),
        ([GAME, well_behaved(1), well_behaved(2), well_behaved(3)], "--tournament"),
        ([GAME, well_behaved(1)], "two --engine"),
    ]
    for args, words in cases:
        done = match(*args, "--results", tmp_path / "r.jsonl")
        assert done.returncode == 2, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr, done.stderr
        assert not (tmp_path / "r.jsonl").exists()
    assert processes_with(marker) == []


def test_an_engine_that_does_not_play_the_game(tmp_path):
    script = tmp_path / "katro_only.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(ENGINES)!r})\n"
                      "import well_behaved\n"
                      "class KatroOnly(well_behaved.Engine):\n"
                      "    def handshake(self, words):\n"
                      "        self.send('id name katro-only')\n"
                      "        self.send('games katro')\n"
                      "        self.send('protocolok 1')\n"
                      "KatroOnly().run()\n")
    done = match(GAME, [f"{sys.executable} {script}"], well_behaved(1))
    assert done.returncode == 2
    assert "does not play katro-4x4 (its games: katro)" in done.stderr


# ---------------------------------------------------------------- the parts

def test_openings_suites_parse(tmp_path):
    start = katra.State(GAME).text()
    assert read_suite(f"# a comment\n\n{start}\n{start} moves a1\n", GAME, "x") == [
        start, katra.State(GAME).child("a1").text()]
    with pytest.raises(ValueError, match="x line 2: a position of katro, not of katro-4x4"):
        read_suite(f"{start}\n{katra.State('katro').text()}\n", GAME, "x")
    with pytest.raises(ValueError, match="holds no opening"):
        read_suite("# nothing\n", GAME, "x")
    for game_id in katra.GAME_IDS:  # the shipped suites: balanced, not finished, distinct
        texts = katra.match.load_suite(None, game_id)
        assert len(texts) == len(set(texts)) >= 20


def test_standing_counts_pairs_by_hand():
    standing = Standing(0, 1)
    entries = [  # pair 0: win + draw (3/2); pair 1: loss + loss (0); pair 2: win + unfinished
        (0, 0, 0, 1, "1-0"), (1, 0, 1, 0, "1/2-1/2"), (2, 1, 0, 1, "0-1"),
        (3, 1, 1, 0, "1-0"), (4, 2, 0, 1, "1-0"), (5, 2, 1, 0, "*")]
    for game, pair, south, north, result in entries:
        standing.add({"game": game, "pair": pair, "south": south, "north": north,
                      "result": result, "faulty": None, "termination": "rules"})
    assert (standing.wins, standing.draws, standing.losses, standing.unfinished) == (2, 1, 2, 1)
    assert standing.pentanomial == [1, 0, 0, 1, 0]


def test_engine_spec_of_the_command_line():
    from katra.cli.match import engine_spec
    spec = engine_spec(["./engine --fast", "name=fast", "option.Hash=64"])
    assert spec == EngineSpec("./engine --fast", "fast", (("Hash", "64"),))
    assert EngineSpec("katra:random:seed=3").builtin == "random:seed=3"


# ---------------------------------------------------------------- the conformance check

def test_check_passes_a_well_behaved_engine():
    done = katra_in_process("match", "--check", engine("well_behaved.py"), GAME)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout
    for name in ("handshake", "isready", "legal moves", "go clock", "go movetime", "go nodes",
                 "go depth", "go infinite, stop", "quit"):
        assert any(line.startswith("pass") and name in line
                   for line in done.stdout.splitlines()), name


@pytest.mark.parametrize("script, failing", [
    ("illegal_move.py", "legal moves"),
    ("ignores_stop.py", "go infinite, stop"),
    ("overtime.py", "go clock"),
])
def test_check_reports_each_failure(script, failing):
    from katra.match._check import POSITIONS_PER_GAME
    # overtime.py: in time for the positions' moves, late for the first timed one
    args = (POSITIONS_PER_GAME + 1,) if script == "overtime.py" else ()
    done = katra_in_process("match", "--check", engine(script, *args), GAME)
    assert done.returncode == 1, done.stdout + done.stderr
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert failed and failing in failed[0], done.stdout


def test_check_bad_input():
    done = katra_in_process("match", "--check", "/nonexistent/engine")
    assert done.returncode == 2 and "cannot be started" in done.stderr


# ---------------------------------------------------------------- Ctrl-C

def test_ctrl_c_stops_the_match_and_every_engine(tmp_path):
    marker = tmp_path / "ctrl-c"
    path = tmp_path / "r.jsonl"
    args = [sys.executable, "-m", "katra", "match", GAME,
            "--engine", engine("spawns_child.py", marker=marker), "option.Delay=20",
            "--engine", engine("well_behaved.py", marker=marker), "option.Seed=1",
            "--games", "1000", "--concurrency", "2", "--results", str(path)]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=restore_sigint)
    try:
        deadline = time.monotonic() + 60
        while len(path.read_text().splitlines() if path.exists() else []) < 2:
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "no game finished in 60 s"
            time.sleep(0.01)
        # the engines and the spawning engine's child are running
        assert len(processes_with(marker)) >= 3 and processes_with(marker, "time.sleep(600)")
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        assert time.monotonic() - sent < 5
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, err
    assert "Interrupted after" in out and "katra: interrupted" in err
    header, games = read_results(path)  # every line whole
    assert games and header["games"] == 1000
    assert processes_with(marker) == []


# ---------------------------------------------------------------- built-in players

def test_builtin_players_in_process_and_the_sprt(tmp_path):
    # alpha-beta against random: H1 (alpha-beta is at least 20 Elo stronger) is accepted
    # long before the 400 games planned
    done = match(GAME, ["katra:alphabeta:depth=3"], ["katra:random:seed=5"], "--games", 400,
                 "--sprt", "elo0=0,elo1=20", "--concurrency", 1, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    pairing = report["pairings"][0]
    assert report["stopped_by_sprt"] and report["played"] < 400
    assert pairing["sprt"]["result"] == "H1" and pairing["sprt"]["llr"] >= pairing["sprt"]["upper"]
    assert pairing["wins"] > pairing["losses"]
    # a score of 100% has no finite Elo: null in the JSON
    assert pairing["elo"] > 0 if pairing["losses"] + pairing["draws"] else pairing["elo"] is None
    assert report["engines"] == ["katra:alphabeta:depth=3", "katra:random:seed=5"]


@pytest.mark.parametrize("tournament, pairings", [("gauntlet", [[0, 1], [0, 2]]),
                                                  ("roundrobin", [[0, 1], [0, 2], [1, 2]])])
def test_tournaments(tmp_path, tournament, pairings):
    path = tmp_path / "r.jsonl"
    done = match(GAME, ["katra:greedy", "name=greedy"], ["katra:random:seed=1", "name=r1"],
                 ["katra:random:seed=2", "name=r2"], "--tournament", tournament, "--games", 2,
                 "--results", path, "--json")
    assert done.returncode == 0, done.stderr
    _, games = read_results(path)
    assert sorted({(g["pairing"], min(g["south"], g["north"]), max(g["south"], g["north"]))
                   for g in games}) == [(k, a, b) for k, (a, b) in enumerate(pairings)]
    report = json.loads(done.stdout)
    assert [p["engines"] for p in report["pairings"]] == [
        [report["engines"][a], report["engines"][b]] for a, b in pairings]
    points = sum(row["points"] for row in report["scores"])
    assert points == sum(g["result"] != "*" for g in games)  # one point per finished game
    if report["ratings"] is not None:  # None: a rating is unbounded (a clean sweep)
        assert report["ratings"]["greedy"] == {"elo": 0.0, "error95": 0.0}


def test_tournament_ratings_with_a_prior_of_draws():
    """A clean sweep leaves the maximum-likelihood ratings unbounded (null); with
    --rating-prior every rating is finite and the text table says the prior."""
    engines = (["katra:alphabeta:depth=3", "name=ab"], ["katra:random:seed=1", "name=r1"],
               ["katra:random:seed=2", "name=r2"])
    plain = match(GAME, *engines, "--tournament", "gauntlet", "--games", 2, "--json")
    assert plain.returncode == 0, plain.stderr
    report = json.loads(plain.stdout)
    assert report["rating_prior"] == 0
    swept = all(p["wins"] == p["games"] for p in report["pairings"])
    assert (report["ratings"] is None) == swept
    prior = match(GAME, *engines, "--tournament", "gauntlet", "--games", 2, "--json",
                  "--rating-prior", 1)
    report = json.loads(prior.stdout)
    ratings = report["ratings"]
    assert report["rating_prior"] == 1 and ratings["ab"] == {"elo": 0.0, "error95": 0.0}
    for name in ("r1", "r2"):  # the first engine is the anchor: the random players below it
        assert -1000 < ratings[name]["elo"] < 0 and 0 < ratings[name]["error95"] < 2000
    text = match(GAME, *engines, "--tournament", "gauntlet", "--games", 2, "--rating-prior", 1)
    assert "1 virtual draw a pairing" in text.stdout
    bad = match(GAME, *engines, "--tournament", "gauntlet", "--rating-prior", -1)
    assert bad.returncode == 2 and "--rating-prior" in bad.stderr


def test_adjudication_by_a_proof(tmp_path):
    path = tmp_path / "r.jsonl"
    done = match(GAME, ["katra:random:seed=1"], ["katra:random:seed=2"], "--games", 2,
                 "--adjudicate", "proven", "--adjudicate-nodes", 5000, "--results", path)
    assert done.returncode == 0, done.stderr
    _, games = read_results(path)
    for g in games:
        state = katra.State.from_text(g["opening"])
        for move in g["moves"].split():
            state.push(move)
        if g["termination"] == "adjudication":
            proof = katra.solve(state)  # the result the referee gave is the proven one
            winner = state.to_move if proof.outcome == "win" else 1 - state.to_move
            assert g["result"] == ("1/2-1/2" if proof.outcome == "draw"
                                   else ("1-0" if winner == 0 else "0-1"))
        else:
            assert g["termination"] == "rules" and state.is_terminal()
    assert any(g["termination"] == "adjudication" for g in games)


def test_openings_order_random_is_seeded(tmp_path):
    suite = tmp_path / "s.openings"
    start = katra.State(GAME)
    texts = [start.child(a).text() for a in start.legal_actions()]
    suite.write_text("\n".join(texts) + "\n")
    orders = []
    for seed in (1, 1, 2):
        path = tmp_path / f"r{len(orders)}.jsonl"
        done = match(GAME, ["katra:random:seed=1"], ["katra:random:seed=2"], "--games",
                     2 * len(texts), "--openings", suite, "--openings-order", "random",
                     "--seed", seed, "--results", path, "--concurrency", 1)
        assert done.returncode == 0, done.stderr
        _, games = read_results(path)
        orders.append([g["opening"] for g in sorted(games, key=lambda g: g["game"])][::2])
    assert orders[0] == orders[1] and sorted(orders[0]) == sorted(texts)
    assert orders[0] != orders[2] and sorted(orders[2]) == sorted(texts)


def test_record_tags_round_trip():
    game = katra.State(GAME)
    for _ in range(2):
        game.push(game.legal_actions()[0])
    tags = {"event": "katra match katro-4x4, game 1", "south": "x", "north": "y z",
            "decision": "0-1", "reason": "South played 'q9'"}
    text = game.record(tags=tags)
    assert text.endswith("decision: 0-1\nreason: South played 'q9'\n")
    assert katra.api.read_record_tags(text) == [tags]
    assert katra.State.from_record(text) == game  # the tags are never replayed
    assert katra.api.read_record_tags(game.record()) == [{}]
    with pytest.raises(ValueError, match="no tag 'white'"):
        game.record(tags={"white": "x"})


def test_adjudication_reads_endgame_tables(tmp_path):
    tables = tmp_path / "t.bin"
    katra.api.build_tables("djenon-aboure", 6, str(tables))
    path = tmp_path / "r.jsonl"
    done = match("djenon-aboure", ["katra:random:seed=1"], ["katra:random:seed=2"], "--games",
                 2, "--adjudicate", "proven", "--adjudicate-nodes", 200, "--tables", tables,
                 "--results", path)
    assert done.returncode == 0, done.stderr
    header, games = read_results(path)
    assert header["tables"] == str(tables) and len(games) == 2
    assert {g["termination"] for g in games} <= {"adjudication", "rules"}
    wrong = match(GAME, ["katra:random"], ["katra:greedy"], "--adjudicate", "proven",
                  "--tables", tables)
    assert wrong.returncode == 2 and "not katro-4x4" in wrong.stderr
    alone = match("djenon-aboure", ["katra:random"], ["katra:greedy"], "--tables", tables)
    assert alone.returncode == 2 and "--tables goes with --adjudicate proven" in alone.stderr


def test_a_player_over_the_protocol_plays_as_in_process(tmp_path):
    """``katra engine alphabeta`` as a program plays the games ``katra:alphabeta`` plays
    in-process (fixed nodes): the pipe changes nothing."""
    runs = []
    for first in (f"{sys.executable} -m katra engine alphabeta", "katra:alphabeta"):
        path = tmp_path / f"r{len(runs)}.jsonl"
        done = match(GAME, [first, "name=a"], ["katra:alphabeta:tt_bits=12", "name=b"],
                     "--games", 4, "--nodes", 300, "--concurrency", 1, "--results", path)
        assert done.returncode == 0, done.stderr
        _, games = read_results(path)
        runs.append(sorted((g["game"], g["moves"], g["result"]) for g in games))
    assert runs[0] == runs[1]
