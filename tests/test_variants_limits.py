"""How many variants one process may play (docs/rules.md §7.1): the core holds
the named games and up to 248 variants a process; the next one is refused
with ArgumentError, and every game already made plays on unharmed.  Run in a
fresh interpreter, so that the test process's own games do not count."""
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import katra
    from katra import _core
    from katra import _reference as reference

    ids = [f"djenon-aboure-2x{cols}-s{seeds}" for seeds in range(1, 40)
           for cols in range(2, 19) if 2 * cols * seeds <= 1000 and (cols, seeds) != (6, 4)]
    made = []
    for game_id in ids:
        try:
            _core.Position.initial(game_id)
        except katra.ArgumentError as error:
            refused, message = game_id, str(error)
            break
        made.append(game_id)
    else:
        raise SystemExit("no variant was refused")
    print(len(made))
    print(message)
    for game_id in (made[0], made[-1], refused):
        try:
            katra.game(game_id).initial_state()
        except katra.ArgumentError:
            print("refused", game_id)
    for game_id in (made[40], made[-1], "katro", "gore"):
        depth = 3
        mine = _core.perft(_core.Position.initial(game_id), depth)
        theirs = reference.perft(reference.Position.initial(game_id), depth)
        print("perft", game_id, mine, theirs)
""")


def test_the_249th_variant_is_refused_and_the_others_play_on():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "248"
    assert "at most 248 variants" in lines[1]
    assert lines[1].startswith("djenon-aboure-2x")
    assert [line for line in lines if line.startswith("refused")] == [
        f"refused {lines[1].split(':')[0]}"]
    perfts = [line.split() for line in lines if line.startswith("perft")]
    assert len(perfts) == 4
    assert all(mine == theirs and int(mine) > 0 for _, _, mine, theirs in perfts)
