"""``katra replay FILE --html OUT.html``: one self-contained page that replays a game.

The page holds everything it shows (no network, no external scripts, styles
or fonts): for every ply the board after it (``state.svg()``) and the move's
laps (``trace.svg()`` and the laps in words), the move list and the result.
A short script steps through the plies with the arrow keys (Home and End for
the start and the end, L to show the laps) or the buttons; ``page.html#ply=12&laps``
opens ply 12 with its laps shown.
"""
from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING, Any

from katra._display import PLAYERS

from .board import end_text, title

if TYPE_CHECKING:
    from katra.api import State

#: Laps listed in words per move on the page (the picture draws the first 12).
LISTED_LAPS = 40

# The SVG namespace is implied inside HTML: left out, the page names no address at all.
_SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fbf7f0; }
h1 { font-size: 1.3em; margin: 0 0 .2em 0; }
.sub { color: #555; font-size: .9em; margin-bottom: 1em; word-break: break-all; }
main { display: flex; gap: 2em; align-items: flex-start; flex-wrap: wrap; }
#controls button { font-size: 1em; padding: .3em .7em; margin-right: .2em; }
#where { margin: .6em 0; font-weight: bold; }
#laps { font-family: ui-monospace, monospace; font-size: .85em; white-space: pre-wrap;
        max-width: 46em; }
ol#moves { max-height: 32em; overflow-y: auto; padding-left: 3em; margin: 0;
           border-left: 1px solid #ccc; }
ol#moves li.here { background: #f3d9a6; font-weight: bold; }
ol#moves li { cursor: pointer; }
.south { color: #00788a; } .north { color: #8a0070; }
#result { margin-top: 1em; font-weight: bold; }
.keys { color: #666; font-size: .85em; }
"""

SCRIPT = r"""
const plies = JSON.parse(document.getElementById("plies").textContent);
let ply = 0, laps = false;
const board = document.getElementById("board"), where = document.getElementById("where");
const lapText = document.getElementById("laps"), lapButton = document.getElementById("lapbutton");
const items = document.querySelectorAll("#moves li");
function show(k) {
  ply = Math.max(0, Math.min(plies.length - 1, k));
  const p = plies[ply];
  const withLaps = laps && p.trace;
  board.innerHTML = withLaps ? p.trace : p.board;
  lapText.textContent = withLaps ? p.laps : "";
  where.textContent = p.where;
  lapButton.disabled = !p.trace;
  lapButton.textContent = laps ? "Hide laps (L)" : "Show laps (L)";
  items.forEach((li, i) => li.classList.toggle("here", i + 1 === ply));
  if (ply > 0) items[ply - 1].scrollIntoView({block: "nearest"});
}
document.getElementById("first").onclick = () => show(0);
document.getElementById("back").onclick = () => show(ply - 1);
document.getElementById("next").onclick = () => show(ply + 1);
document.getElementById("last").onclick = () => show(plies.length - 1);
lapButton.onclick = () => { laps = !laps; show(ply); };
items.forEach((li, i) => li.onclick = () => show(i + 1));
document.addEventListener("keydown", e => {
  const keys = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies.length - 1};
  if (e.key in keys) { show(keys[e.key]); e.preventDefault(); }
  else if (e.key === "l" || e.key === "L") { laps = !laps; show(ply); }
});
// A link may open a ply, with its laps: page.html#ply=12&laps
const asked = /ply=(\d+)/.exec(location.hash);
laps = /laps/.test(location.hash);
show(asked ? Number(asked[1]) : 0);
"""


def _svg(picture: str) -> str:
    return picture.replace(_SVG_NAMESPACE, "", 1)


def _ply_data(states: list[State], moves: list[int]) -> list[dict[str, Any]]:
    """What the page shows at each ply: the board, and the move's laps (picture, words)."""
    data: list[dict[str, Any]] = [{"board": _svg(states[0].svg()), "trace": "", "laps": "",
                                   "where": f"Start ({len(moves)} plies)"}]
    for ply, action in enumerate(moves, start=1):
        before = states[ply - 1]
        trace = before.explain(action)
        words = [trace.headline(), *(lap.text(sown=True) for lap in trace.laps[:LISTED_LAPS])]
        if trace.total_laps > LISTED_LAPS:
            words.append(f"... {trace.total_laps - LISTED_LAPS} more laps: "
                         f"katra show '{before.text()}' {trace.move} --explain --all")
        data.append({"board": _svg(states[ply].svg()),
                     "trace": _svg(trace.svg()) if trace.laps else "",
                     "laps": "\n".join(words),
                     "where": f"Ply {ply}/{len(moves)}: {PLAYERS[before.to_move]} plays "
                              f"{trace.move}"})
    return data


def replay_page(final: State) -> str:
    """The page for the game that ended in ``final`` (its moves on the move stack)."""
    moves = final.move_stack
    states = [final.root()]
    for action in moves:
        states.append(states[-1].child(action))
    outcome = final.outcome()
    result = (f"Result: {end_text(final, outcome)} ({outcome.result()})" if outcome
              else "Result: not finished (*)")
    items = "".join(
        f'<li class="{"south" if states[k].to_move == 0 else "north"}">'
        f"{escape(states[k].action_text(action))}</li>"
        for k, action in enumerate(moves))
    # JSON inside <script>: "</" is written "<\\/" so no string can close the element.
    data = json.dumps(_ply_data(states, moves)).replace("</", "<\\/")
    name = escape(title(final.game.id))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name}: replay</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{name}</h1>
<div class="sub">Start: {escape(states[0].text())}</div>
<main>
<section>
<div id="controls">
<button id="first" title="Home">&laquo; Start</button>
<button id="back" title="Left arrow">&#x25C0; Back</button>
<button id="next" title="Right arrow">Next &#x25B6;</button>
<button id="last" title="End">End &raquo;</button>
<button id="lapbutton">Show laps (L)</button>
</div>
<div id="where"></div>
<div id="board"></div>
<div id="laps"></div>
<div id="result">{escape(result)}</div>
<p class="keys">Keys: &#x2190; &#x2192; step, Home/End, L laps. South moves in
<span class="south">teal</span>, North in <span class="north">purple</span>.</p>
</section>
<section>
<div><b>Moves</b></div>
<ol id="moves">{items}</ol>
</section>
</main>
<script type="application/json" id="plies">{data}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
