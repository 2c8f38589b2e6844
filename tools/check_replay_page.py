"""Open katra's replay pages in a real headless browser and check that they work.

    python tools/check_replay_page.py [--browser chromium] [--games 7]

For each game id it plays a seeded random game (at most 80 plies), writes the
page with ``katra replay FILE --html OUT.html``, and loads it in headless
Chromium four times: at the start, at a middle ply (``#ply=K``), at that ply
with its laps (``#ply=K&laps``) and at its first lap alone (``#ply=K&lap=1``).  The page's own script fills in what is
shown, so the DOM the browser ends with tells whether the script ran: the
"where" line must name the ply, the board must be an SVG drawing (the lap
picture when asked), and the browser's console must show no error.  Exits 1
on the first failure, 0 when every page passed.  Needs a browser (Debian:
``apt-get install chromium``); the test suite checks the page without one
(tests/test_explain_cli.py).
"""
from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import katra


def random_record(game_id: str, seed: int, max_plies: int = 80) -> str:
    state = katra.State(game_id)
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.move_stack) < max_plies:
        state.push(rng.choice(state.legal_actions()))
    return state.record()


def load(browser: str, page: Path, fragment: str) -> tuple[str, str]:
    """(the DOM after the scripts ran, the browser's log) for ``page#fragment``."""
    result = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=0", "--virtual-time-budget=3000", "--dump-dom",
         page.as_uri() + (f"#{fragment}" if fragment else "")],
        capture_output=True, text=True, timeout=120, check=False)
    return result.stdout, result.stderr


def check(browser: str, page: Path, plies: int) -> list[str]:
    problems = []
    middle = max(1, plies // 2)
    visits = (("", "Start (", False), (f"ply={middle}", f"Ply {middle}/", False),
              (f"ply={middle}&laps", f"Ply {middle}/", True),
              (f"ply={middle}&lap=1", f"Ply {middle}/", True))
    for fragment, where, laps in visits:
        dom, log = load(browser, page, fragment)
        errors = [line for line in log.splitlines()
                  if "CONSOLE" in line and ("Error" in line or "Uncaught" in line)]
        if errors:
            problems.append(f"{page.name}#{fragment}: console errors: {errors[:3]}")
        shown = re.search(r'<div id="where">(.*?)</div>', dom)
        if not shown or where not in shown.group(1):
            problems.append(f"{page.name}#{fragment}: the where line is "
                            f"{shown.group(1) if shown else 'missing'!r}, expected {where!r}")
        board = re.search(r'<div id="board">(.*?)</div>', dom, re.S)
        if not board or "<svg" not in board.group(1):
            problems.append(f"{page.name}#{fragment}: no board drawn")
        elif laps and "<polyline" not in board.group(1) and "no sowing" not in dom:
            problems.append(f"{page.name}#{fragment}: laps asked for, none drawn")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browser", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not shutil.which(args.browser):
        print(f"no browser {args.browser!r}: install one (apt-get install chromium)")
        return 2
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        for k, game_id in enumerate(katra.GAME_IDS):
            record = Path(folder, f"{game_id}.txt")
            record.write_text(random_record(game_id, args.seed + k), encoding="utf-8")
            page = Path(folder, f"{game_id}.html")
            subprocess.run([sys.executable, "-m", "katra", "replay", str(record), "--html",
                            str(page)], check=True)
            plies = len(katra.State.from_record(record.read_text(encoding="utf-8")).move_stack)
            problems = check(args.browser, page, plies)
            print(f"{'ok  ' if not problems else 'FAIL'} {game_id}: {plies} plies, "
                  f"{page.stat().st_size:,} bytes")
            failures += problems
    for problem in failures:
        print("  " + problem)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
