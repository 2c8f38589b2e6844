"""Add board sizes to the game table in a scratch copy, build it, and play them.

    python tools/check_new_size.py [--keep]

Shows that a new board size of an existing family is one row in the game
table (src/katra/_games.py) and nothing else: the tracked files are copied
into a temporary folder, a ``GameSpec`` row a family is added there (Katro on
6 rows of 4 columns, ``katro-6x4``, which gets packed lanes; Goré on 2 x 3
and Djenon-aboure on 2 x 5, which get the int form, as every size of those
families but their first does), the compiled core is built in place (a few
minutes), and in that copy the core and the pure-Python reference must agree
on each new game's perft counts (depths 1..5, the core on its lanes and on
the int form), on a batch of playouts, and the search must finish.  Exit
status 0 and one summary line a game, else 1 with the failure.
tests/test_core_templates.py checks the generated core text for such a row in
the default run; this tool (run by its slow test) checks that the text
compiles and plays.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The rows added (GameSpec's arguments), each with the anchor it goes after.
KATRO_ANCHOR = '        GameSpec("katro-4x4", "Katro 4x4", KATRO, 4, 4, 2, 16, False, False),\n'
END_ANCHOR = '                 aliases=("djenon", "djenon aboure")),\n'
NEW_ROWS = [
    (KATRO_ANCHOR,
     '        GameSpec("katro-6x4", "Katro 6x4", KATRO, 6, 4, 2, 24, False, False),\n'),
    (END_ANCHOR, '        GameSpec("gore-2x3", "Goré 2x3", GORE, 2, 3, 6, 267, True, True),\n'
                 '        GameSpec("djenon-aboure-2x5", "Djenon-aboure 2x5", DJENON, 2, 5, 4, 11, '
                 'True, False),\n'),
]
NEW_IDS = ("katro-6x4", "gore-2x3", "djenon-aboure-2x5")

# Run in the scratch copy: the core against the reference on the new game.
PLAY = f"""
import katra, katra._core as core, katra._reference as ref
assert core.CORE_GAME_IDS == katra.GAME_IDS
for game in {NEW_IDS!r}:
    assert game in katra.GAME_IDS
    spec = katra.game(game).spec
    assert katra.game(game.split("-")[0], rows=spec.rows, cols=spec.cols).id == game
    mine, theirs = core.Position.initial(game), ref.Position.initial(game)
    counts = []
    for depth in range(1, 6):
        lanes = core.perft(mine, depth)
        core._set_lanes(False)
        plain = core.perft(mine, depth)
        core._set_lanes(True)
        expected = ref.perft(theirs, depth)
        assert lanes == plain == expected, (game, depth, lanes, plain, expected)
        counts.append(expected)
    assert core.playouts(mine, 20, 7, 300) == ref.playouts(theirs, 20, 7, 300), game
    result = core.search(mine, depth=6)
    assert result["depth"] == 6 and result["best_action"] in range(spec.num_actions), result
    print(f"{{game}}: perft 1..5 {{counts}} agree (lanes, int form, reference);",
          "playouts agree; search ok")
"""


#: What a source tree holds besides its sources (build products, environments, caches):
#: never copied when the tree is not a git checkout (an unpacked sdist).
NOT_SOURCES = {".git", "build", "dist", ".venv", "venv", "site", "__pycache__", ".pytest_cache",
               ".hypothesis", ".benchmarks", ".ruff_cache", ".mypy_cache"}


CORE_C = os.path.join("cython_core", "_core.c")


def tracked_files() -> list[str]:
    """The tree's source files: git's list in a checkout, else every file but
    NOT_SOURCES and the build's products (compiled modules, the core's C file)."""
    if (ROOT / ".git").exists():
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                             capture_output=True)
        return [name for name in out.stdout.decode().split("\0") if name]
    names = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in NOT_SOURCES and not d.endswith(".egg-info")]
        for file in files:
            name = os.path.relpath(os.path.join(folder, file), ROOT)
            if not file.endswith((".so", ".pyd", ".pyc")) and name != CORE_C:
                names.append(name)
    return names


def copy_tree(target: Path) -> None:
    for name in tracked_files():
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def add_rows(target: Path) -> None:
    table = target / "src" / "katra" / "_games.py"
    text = table.read_text(encoding="utf-8")
    for anchor, rows in NEW_ROWS:
        if anchor not in text:
            raise SystemExit(f"check_new_size: {anchor.strip()!r} not found in the game table")
        text = text.replace(anchor, anchor + rows)
    table.write_text(text, encoding="utf-8")


def run(target: Path) -> int:
    copy_tree(target)
    add_rows(target)
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
                           cwd=target, capture_output=True, text=True)
    if build.returncode != 0:
        print(f"check_new_size: the build failed\n{build.stdout[-3000:]}{build.stderr[-3000:]}")
        return 1
    # the package as a wheel lays it out: python_api is katra.api
    shutil.copytree(target / "python_api", target / "src" / "katra" / "api")
    env = {**os.environ, "PYTHONPATH": str(target / "src")}
    play = subprocess.run([sys.executable, "-c", PLAY], cwd=target, env=env,
                          capture_output=True, text=True)
    if play.returncode != 0:
        print(f"check_new_size: the new games do not play\n{play.stderr[-3000:]}")
        return 1
    print(play.stdout.strip())
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch copy and print its path")
    args = parser.parse_args()
    target = Path(tempfile.mkdtemp(prefix="katra-new-size-"))
    try:
        return run(target)
    finally:
        if args.keep:
            print(f"scratch copy: {target}")
        else:
            shutil.rmtree(target, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
