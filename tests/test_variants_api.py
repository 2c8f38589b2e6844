"""A variant (docs/rules.md §7) is a game everywhere: the API, the command line,
katra's engines and matches, VectorGame and the learning adapters; the features
made for one named game (shipped suites, endgame tables) refuse a variant by name."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import katra
import katra.api
import katra.testing
from katra.cli.main import main
from katra.match import load_suite, plays_game

VARIANTS = ("katro-4x5-s3", "gore-2x3-s6", "djenon-aboure-2x8-s4",
            "katra-mpantsaka-simplified-4x3-s1")
KATRA = [sys.executable, "-m", "katra"]


def run_cli(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def random_line(state, plies, seed):
    """``state`` after up to ``plies`` moves drawn by a seeded generator (never
    past the end of the game)."""
    import random
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.push(rng.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------- katra.game and texts

def test_keywords_and_ids_name_the_same_game():
    assert katra.game("katro", rows=4, cols=5, seeds=3) is katra.game("katro-4x5-s3")
    assert katra.game("gore", cols=3) is katra.game("gore-2x3-s6")
    assert katra.game("djenon", cols=8) is katra.game("djenon-aboure-2x8-s4")
    simplified = katra.game("katra-mpantsaka", cols=3, seeds=1, simplified=True)
    assert simplified is katra.game("katra-mpantsaka-simplified-4x3-s1")
    g = katra.game("katro-4x5-s3")
    assert (g.rows, g.cols, g.seeds_per_hole, g.holes, g.num_actions) == (4, 5, 3, 20, 20)
    assert g.observation_size == 3 * 20 + 4 and repr(g) == "katra.game('katro-4x5-s3')"
    # §7.2: Goré keeps its 267 actions on every size; Djenon-aboure's pass is the hole count
    assert katra.game("gore-2x3-s6").num_actions == 267
    assert katra.game("djenon-aboure-2x8-s4").num_actions == 17
    assert katra.game("djenon-aboure-2x8-s4").spec.pass_action == 16
    with pytest.raises(katra.ArgumentError, match="rows=5"):
        katra.game("katro", rows=5)


@pytest.mark.parametrize("game_id", VARIANTS)
def test_start_texts_and_round_trips(game_id):
    g = katra.game(game_id)
    start = g.initial_state()
    # the start position: seeds_per_hole in every hole (§7), South to move
    assert start.board == [g.seeds_per_hole] * g.holes and start.to_move == 0
    assert start.text().split(" ")[0] == game_id
    state = random_line(g.initial_state(), 9, seed=len(game_id))
    text = state.text()
    again = katra.State.from_text(text)
    assert again.text() == text and again.game is g
    assert katra.State.from_text(text, backend="reference").text() == text
    assert again.legal_actions() == state.legal_actions()


def test_variant_start_texts_by_hand():
    assert katra.State("gore-2x3-s6").text() == (
        "gore-2x3-s6 6,6,6/6,6,6 S stores=0,0 owners=NNN/SSS")
    assert katra.State("katra-mpantsaka-simplified-4x3-s1").text() == (
        "katra-mpantsaka-simplified-4x3-s1 1,1,1/1,1,1/1,1,1/1,1,1 S")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_records_round_trip(game_id):
    games = [random_line(katra.State(game_id), n, seed=n) for n in (0, 5, 12)]
    text = katra.write_records(games)
    assert f"start: {games[0].text()}" in text
    back = katra.read_records(text)
    assert [s.text() for s in back] == [s.text() for s in games]
    assert [s.move_stack for s in back] == [s.move_stack for s in games]
    one = katra.State.from_record(games[2].record())
    assert one.text() == games[2].text() and one.game.id == game_id


# ---------------------------------------------------------------- proofs, perft files, diff

def test_proof_of_a_variant_is_checked_by_katra_solve_check(tmp_path):
    proof = tmp_path / "proof.txt"
    with proof.open("w") as out:
        result = katra.solve("katro-4x3-s2", proof=out)
    assert result.outcome is not None
    assert proof.read_text().splitlines()[1] == f"position {katra.State('katro-4x3-s2').text()}"
    summary = katra.testing.check_proof(str(proof))
    assert summary.outcome == result.outcome and summary.position.startswith("katro-4x3-s2 ")
    done = subprocess.run([*KATRA, "solve", "--check", str(proof), "--json"],
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    assert report["valid"] and report["outcome"] == result.outcome
    # a proof whose claim is changed no longer checks
    lines = proof.read_text().splitlines()
    wrong = {"win": "loss", "loss": "win", "draw": "win"}[result.outcome]
    lines[2] = lines[2].replace(result.outcome, wrong, 1)
    proof.write_text("\n".join(lines) + "\n")
    bad = subprocess.run([*KATRA, "solve", "--check", str(proof)], capture_output=True, text=True)
    assert bad.returncode != 0 and bad.stderr.count("\n") == 1


def test_perft_file_with_variant_ids_is_checked(tmp_path, capsys):
    # counts by the pure-Python reference, checked by `katra perft --suite` on the core
    lines = []
    for n, game_id in enumerate(("katro-4x5-s3", "katra-mpantsaka-simplified-4x3-s1")):
        state = random_line(katra.State(game_id), 4, seed=n)
        lines += [f"id {game_id}-mid", f"position {state.text()}"]
        lines += [f"perft {d} {katra.perft(state.text(), d, backend='reference')}"
                  for d in (1, 2, 3)]
    suite = tmp_path / "variants.perft"
    suite.write_text("\n".join(lines) + "\n")
    status, out, _ = run_cli(capsys, "perft", "--suite", str(suite), "--json")
    assert status == 0 and json.loads(out)["passed"] == 6
    # a wrong count fails
    suite.write_text("\n".join(lines).replace(lines[2], lines[2] + "1") + "\n")
    status, _, _ = run_cli(capsys, "perft", "--suite", str(suite))
    assert status == 1


@pytest.mark.parametrize("game_id", ["katro-4x5-s3", "katra-mpantsaka-simplified-4x3-s1"])
def test_katra_diff_on_a_variant(game_id):
    example = f"{sys.executable} -m katra.testing.example"
    done = subprocess.run([*KATRA, "diff", example, game_id, "3", "--json"],
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    count = katra.perft(game_id, 3)
    assert report["agree"] and report["nodes"] == {"command": count, "katra": count}
    walk = subprocess.run([*KATRA, "diff", "--walk", example, game_id, "--games", "3"],
                          capture_output=True, text=True, check=True)
    assert walk.stdout.startswith(f"agree: 3 games from {katra.State(game_id).text()}")


# ---------------------------------------------------------------- the command line

def test_show_by_id_and_by_options(capsys):
    status, by_id, _ = run_cli(capsys, "show", "katro-4x5-s3")
    assert status == 0
    assert by_id.splitlines()[-1] == f"position {katra.State('katro-4x5-s3').text()}"
    status, by_options, _ = run_cli(capsys, "show", "katro", "--rows", "4", "--cols", "5",
                                    "--seeds", "3")
    assert status == 0 and by_options == by_id
    status, out, _ = run_cli(capsys, "show", "katra-mpantsaka", "--simplified", "--cols", "3",
                             "--seeds", "1")
    start = katra.State("katra-mpantsaka-simplified-4x3-s1").text()
    assert status == 0 and out.splitlines()[-1] == f"position {start}"


def test_perft_playouts_solve_analyse_on_variants(capsys):
    status, out, _ = run_cli(capsys, "perft", "gore-2x3-s4", "4", "--json")
    assert status == 0 and json.loads(out)["nodes"] == katra.perft("gore-2x3-s4", 4)
    status, out, _ = run_cli(capsys, "perft", "gore", "4", "--cols", "3", "--seeds", "4", "-q")
    assert status == 0 and int(out) == katra.perft("gore-2x3-s4", 4)
    status, out, _ = run_cli(capsys, "perft", "gore", "--cols", "3", "--seeds", "4", "4", "-q")
    assert status == 0 and int(out) == katra.perft("gore-2x3-s4", 4)
    status, out, _ = run_cli(capsys, "solve", "katro-4x3-s2", "--max-plies", "200", "--json")
    solved = json.loads(out)
    assert status == 0 and solved["outcome"] == katra.solve("katro-4x3-s2", 200).outcome
    status, out, _ = run_cli(capsys, "solve", "katro", "--rows", "4", "--cols", "3",
                             "--max-plies", "200", "--json")
    assert status == 0 and json.loads(out)["position"] == solved["position"]
    status, out, _ = run_cli(capsys, "playouts", "djenon-aboure-2x8-s4", "20", "--seed", "3",
                             "--json")
    tally = json.loads(out)
    expected = katra.playouts("djenon-aboure-2x8-s4", 20, seed=3)
    assert status == 0 and {k: tally[k] for k in expected} == expected
    status, out, _ = run_cli(capsys, "analyse", "katra-mpantsaka-simplified-4x3-s1",
                             "--depth", "2", "--json")
    assert status == 0 and len(json.loads(out)["moves"]) == len(
        katra.State("katra-mpantsaka-simplified-4x3-s1").legal_actions())
    status, out, _ = run_cli(capsys, "rules", "gore", "--cols", "3")
    assert status == 0 and "gore-2x3-s6" in out


def test_variant_options_refuse_bad_input(capsys):
    status, out, err = run_cli(capsys, "show", katra.State("katro-4x4").text(), "--rows", "4")
    assert status == 2 and out == "" and err.count("\n") == 1 and "--rows" in err
    status, _, err = run_cli(capsys, "perft", "katro", "2", "--rows", "5")
    assert status == 2 and err.count("\n") == 1 and "rows=5" in err
    status, _, err = run_cli(capsys, "show", "gore", "--simplified")
    assert status == 2 and "simplified" in err and "Goré" in err
    status, _, err = run_cli(capsys, "show", "katro-4x99-s3")
    assert status == 2 and "cols=99" in err


def test_play_and_replay_a_variant(tmp_path):
    record = tmp_path / "game.txt"
    done = subprocess.run([*KATRA, "play", "katro", "--rows", "4", "--cols", "5", "--seeds", "3",
                           "--depth", "1", "--record", str(record)], input="a1\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    state = katra.State.from_record(record.read_text())
    assert state.game.id == "katro-4x5-s3" and state.move_stack[0] == 0
    assert len(state.move_stack) == 2      # a1, then the engine's answer
    replay = subprocess.run([*KATRA, "replay", str(record), "--ply", "2"], capture_output=True,
                            text=True, check=True)
    lines = replay.stdout.splitlines()
    answer = state.action_text(state.move_stack[1])
    assert lines[0] == f"Ply 2/2: North plays {answer}"
    # the board drawn row by row: North's outer row first, as in the position text
    outer = [int(cell) for cell in lines[2].split("│")[1:-1]]
    assert outer == state.board[15:20]


def test_bench_times_a_variant(capsys):
    status, out, _ = run_cli(capsys, "bench", "katro", "--rows", "4", "--cols", "3", "--depth",
                             "4", "--playouts", "3", "--json")
    rows = json.loads(out)["jobs"]
    assert status == 0 and [(r["game"], r["job"]) for r in rows] == [
        ("katro-4x3-s2", "perft"), ("katro-4x3-s2", "playouts")]
    assert all(r["agree"] for r in rows)


@pytest.mark.parametrize("game_id", ["katro-4x3-s2", "gore-2x3-s4", "djenon-aboure-2x8-s4"])
def test_bench_default_depth_of_a_variant_is_counted_not_timed(game_id):
    from katra.cli.bench import VARIANT_LEAVES, default_depth

    depth = default_depth(game_id)
    assert katra.perft(game_id, depth) >= VARIANT_LEAVES > katra.perft(game_id, depth - 1)
    assert default_depth("gore-2x2-s1") == 12        # over at the start: no depth reaches it


# ---------------------------------------------------------------- engines and matches

def test_engine_plays_a_variant_over_the_protocol():
    script = "\n".join(["protocol 1", "position katro-4x5-s3 moves b1", "text",
                        f"position {katra.State('gore-2x3-s6').text()}", "legal",
                        "go depth 2", "quit"]) + "\n"
    done = subprocess.run([*KATRA, "engine", "alphabeta"], input=script, capture_output=True,
                          text=True, check=True, timeout=120)
    lines = done.stdout.splitlines()
    games = next(line for line in lines if line.startswith("games ")).split()[1:]
    assert "katro-*" in games and "gore-*" in games and "djenon-aboure-*" in games
    after_b1 = katra.State("katro-4x5-s3")
    after_b1.push("b1")
    assert after_b1.text() in lines
    gore = katra.State("gore-2x3-s6")
    assert " ".join(gore.action_text(a) for a in gore.legal_actions()) in lines
    best = lines[-1].split()
    assert best[0] == "bestmove" and best[1] in [gore.action_text(a)
                                                 for a in gore.legal_actions()]


def test_family_wildcards_cover_variants():
    games = ("katro", "katro-*", "gore-2x3-s6")
    assert plays_game(games, "katro-4x5-s3") and plays_game(games, "katro-4x4")
    assert plays_game(games, "gore-2x3-s6") and not plays_game(games, "gore-2x3-s5")
    assert not plays_game(("katra-mpantsaka-*",), "katra-mpantsaka-simplified-4x3-s1")
    assert not plays_game(games, "not-a-game")


def test_match_between_two_katra_players_on_a_variant(tmp_path):
    records = tmp_path / "games.txt"
    done = subprocess.run(
        [*KATRA, "match", "katro", "--rows", "4", "--cols", "5", "--seeds", "3",
         "--engine", "katra engine alphabeta:depth=2", "--engine", "katra:greedy",
         "--games", "4", "--concurrency", "1", "--records", str(records), "--json"],
        capture_output=True, text=True, check=True, timeout=300)
    report = json.loads(done.stdout)
    assert report["game"] == "katro-4x5-s3" and report["played"] == 4
    played = katra.read_records(records.read_text())
    assert len(played) == 4 and all(s.game.id == "katro-4x5-s3" for s in played)
    # katra's suite for a variant: every position one move from its start
    start = katra.State("katro-4x5-s3")
    children = []
    for action in start.legal_actions():
        start.push(action)
        children.append(start.text())
        start.pop()
    assert load_suite(None, "katro-4x5-s3") == children


def test_match_check_of_a_variant():
    done = subprocess.run([*KATRA, "match", "--check", "katra engine random", "gore-2x3-s6",
                           "--json"], capture_output=True, text=True, timeout=300)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["passed"]
    assert any(item["name"].startswith("gore-2x3-s6: legal moves") for item in report["checks"])


# ---------------------------------------------------------------- learning

@pytest.mark.parametrize("game_id", VARIANTS)
def test_vector_game_on_a_variant(game_id):
    g = katra.game(game_id)
    vg = katra.VectorGame(game_id, 3, seed=5)
    vg.reset()
    assert vg.num_actions == g.num_actions and vg.observation_size == 3 * g.holes + 4
    assert vg.observations.shape == (3, g.observation_size)
    assert vg.action_masks.shape == (3, g.num_actions)
    for _ in range(15):
        vg.step_random()
    for i in range(3):
        state = vg.position(i)
        assert state.game is g
        mask = [bool(x) for x in vg.action_masks[i]]
        legal = set(state.legal_actions())
        assert mask == [a in legal for a in range(g.num_actions)]


def test_openspiel_game_parameters():
    import pyspiel

    import katra.openspiel  # registers the games
    game = pyspiel.load_game("katra_katro(rows=4,cols=5,seeds=3)")
    assert game.num_distinct_actions() == 20 and game.observation_tensor_shape() == [64]
    assert str(game.new_initial_state()) == katra.State("katro-4x5-s3").text()
    for name, params, game_id in [("katra_gore", {"cols": 3}, "gore-2x3-s6"),
                                  ("katra_djenon_aboure", {"cols": 8}, "djenon-aboure-2x8-s4"),
                                  ("katra_katra_mpantsaka",
                                   {"cols": 3, "seeds": 1, "simplified": True},
                                   "katra-mpantsaka-simplified-4x3-s1")]:
        game = pyspiel.load_game(name, params)
        assert str(game.new_initial_state()) == katra.State(game_id).text()
        assert game.num_distinct_actions() == katra.game(game_id).num_actions
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(katra.ArgumentError, match="rows=5"):
        pyspiel.load_game("katra_katro(rows=5)")


def test_pettingzoo_and_gymnasium_variants():
    import gymnasium
    from pettingzoo.test import api_test

    import katra.gymnasium
    from katra.pettingzoo import env
    aec = env("katro", rows=4, cols=5, seeds=3)
    assert aec.unwrapped.game is katra.game("katro-4x5-s3")
    api_test(env("gore-2x3-s6", max_plies=60), num_cycles=30)
    aec.reset(seed=0)
    observation = aec.last()[0]
    assert observation["observation"].shape == (64,) and observation["action_mask"].shape == (20,)
    made = gymnasium.make("katra/DjenonAboure-v0", cols=8)
    obs, info = made.reset(seed=1)
    assert obs.shape == (3 * 16 + 4,) and info["action_mask"].shape == (17,)
    assert made.action_space.n == 17
    vec = katra.gymnasium.KatraVectorEnv("katra-mpantsaka", 2, cols=3, seeds=1, simplified=True)
    obs, _ = vec.reset()
    assert obs.shape == (2, 3 * 12 + 4) and vec.single_action_space.n == 24


# ---------------------------------------------------------------- what a variant cannot have

def test_named_game_data_refuses_a_variant(tmp_path, capsys):
    for call in (lambda: list(katra.testing.perft_suite("katro-4x5-s3")),
                 lambda: katra.testing.solved_suite("gore-2x3-s6"),
                 lambda: katra.testing.deep_suite("djenon-aboure-2x8-s4")):
        with pytest.raises(katra.ArgumentError, match="variant"):
            call()
    with pytest.raises(katra.ArgumentError, match="djenon-aboure-2x8-s4"):
        katra.api.build_tables("djenon-aboure-2x8-s4", 2, str(tmp_path / "t.tables"))
    status, _, err = run_cli(capsys, "perft", "--suite", "katro-4x5-s3")
    assert status == 2 and err.count("\n") == 1 and "katro-4x5-s3" in err
    status, _, err = run_cli(capsys, "tables", "build", "djenon-aboure", "--cols", "8",
                             "--max-seeds", "2", "--out", str(tmp_path / "t.tables"))
    assert status == 2 and err.count("\n") == 1 and "djenon-aboure-2x8-s4" in err
    named = tmp_path / "named.tables"
    katra.api.build_tables("djenon-aboure", 2, str(named))
    with pytest.raises(katra.ArgumentError, match="djenon-aboure-2x8-s4"):
        katra.api.load_tables(str(named), "djenon-aboure-2x8-s4")
    with pytest.raises(katra.ArgumentError, match="djenon-aboure-2x3-s2"):
        katra.solve("djenon-aboure-2x3-s2", tables=katra.api.load_tables(str(named)))
    status, _, err = run_cli(capsys, "match", "djenon-aboure-2x8-s4", "--engine", "katra:random",
                             "--engine", "katra:greedy", "--games", "2", "--adjudicate",
                             "proven", "--tables", str(named))
    assert status == 2 and err.count("\n") == 1 and "djenon-aboure-2x8-s4" in err


def test_dfpn_table_file_of_a_variant(tmp_path):
    table = str(tmp_path / "t.dfpn")
    first = katra.solve("katro-4x3-s2", dfpn_table=table, tt_bits=16)
    assert katra.api.dfpn_table_info(table).game == "katro-4x3-s2"
    again = katra.solve("katro-4x3-s2", dfpn_table=table, tt_bits=16)
    assert (again.outcome, again.best_action) == (first.outcome, first.best_action)
    with pytest.raises(katra.ArgumentError, match="katro-4x3-s2, not katro-4x3-s3"):
        katra.solve("katro-4x3-s3", dfpn_table=table, tt_bits=16)


def test_records_text_names_the_variant():
    state = katra.State("gore-2x3-s6")
    state.push(state.legal_actions()[0])
    out = io.StringIO(state.record())
    assert out.read().startswith("start: gore-2x3-s6 ")


@pytest.mark.parametrize("game_id,path", [
    ("gore-2x3", ["round all 6 holes:", "  2   a2 ← b2 ← c2", "  1   a1 → b1 → c1"]),
    ("djenon-aboure-2x8-s3", ["round all 16 holes:", "a1 → b1 → c1 → d1 → e1 → f1 → g1 → h1"]),
    ("katra-mpantsaka-4x3", ["round its own 6 holes", "  2   a2 ← b2 ← c2    front"]),
    ("katro-6x3-s1", ["three rows", "  3   a3 → b3 → c3    inner   (after c3: back to a1)"]),
    ("katro-4x5-s3", ["  1   a1 → b1 → c1 → d1 → e1    outer   (after e1 comes e2)"]),
])
def test_rules_draw_a_variants_own_board(capsys, game_id, path):
    status, out, _ = run_cli(capsys, "rules", game_id)
    assert status == 0
    for line in path:
        assert line in out, line
    assert "docs/rules.md §" in out and ", §7)" in out
    status, full, _ = run_cli(capsys, "rules", game_id, "--full")
    assert status == 0 and "\n## 7. Other board sizes and seed counts" in full
    status, named, _ = run_cli(capsys, "rules", "gore", "--full")
    assert status == 0 and "## 7. " not in named
