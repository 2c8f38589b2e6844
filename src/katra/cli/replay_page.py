"""``katra replay FILE --html OUT.html``: one self-contained page that replays a game.

The page holds everything it shows (no network, no external scripts, styles
or fonts).  Its HTML is the whole game, readable without JavaScript: for
every ply the move's laps (``trace.svg()``, all of them on the board before
the move, and the laps in words) and the board after it (``state.svg()``),
then the move list and the result.  Each move's lap-by-lap frames
(``trace.svg(lap=k)``) wait as text in a JSON ``<script>`` element, which a
browser neither shows nor parses into a document (a long game holds
thousands).  A short script turns this into a viewer: the arrow keys (or the
buttons) step through the plies (Home and End for the start and the end), L
shows the move's laps, all at once, and the up and down arrows step through
them one lap at a time; ``page.html#ply=12&laps`` opens ply 12 with its laps
shown, ``page.html#ply=12&lap=3`` at its third lap.  The viewer holds one
picture at a time in the document (the rest are kept aside by the script), so
the arrowheads' ids, the same in every lap picture, never clash.
"""
from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING

from katra._display import PLAYERS

from .board import end_text, title

if TYPE_CHECKING:
    from katra.api import MoveTrace, State

#: Laps of a move listed in words and drawn one frame each (the picture of the whole
#: move draws the first 12).
LISTED_LAPS = 40

# The SVG namespace is implied inside HTML: left out, the page names no address at all.
_SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fbf7f0; }
h1 { font-size: 1.3em; margin: 0 0 .2em 0; }
h2 { font-size: 1em; margin: 1.5em 0 .4em 0; }
.sub { color: #555; font-size: .9em; margin-bottom: 1em; word-break: break-all; }
main { display: flex; gap: 2em; align-items: flex-start; flex-wrap: wrap; }
#controls button { font-size: 1em; padding: .3em .7em; margin: 0 .2em .3em 0; }
#where { margin: .6em 0; font-weight: bold; }
.laps, #laps { font-family: ui-monospace, monospace; font-size: .85em; white-space: pre-wrap;
               max-width: 46em; }
#laps .here { background: #f3d9a6; font-weight: bold; }
.pictures { display: flex; gap: 1em; flex-wrap: wrap; align-items: flex-start; }
figure { margin: 0; }
ol#moves { max-height: 32em; overflow-y: auto; padding-left: 3em; margin: 0;
           border-left: 1px solid #ccc; }
ol#moves li.here { background: #f3d9a6; font-weight: bold; }
body.viewer ol#moves li { cursor: pointer; }
.south { color: #00788a; } .north { color: #8a0070; }
#result { margin-top: 1em; font-weight: bold; }
.keys { color: #666; font-size: .85em; }
"""

SCRIPT = r"""
// The game as the HTML holds it: one article per ply, its lap frames as JSON text.
const plies = Array.from(document.querySelectorAll("#game article.ply"), a => {
  const frames = a.querySelector("script.frames"), laps = a.querySelector(".laps");
  return {
    where: a.querySelector("h2").textContent,
    board: a.querySelector("figure.board svg"),
    trace: a.querySelector("figure.trace svg"),
    laps: Number(a.dataset.laps || 0),
    words: laps ? laps.textContent.split("\n") : [],
    frames: frames ? JSON.parse(frames.textContent) : [],
  };
});
// One picture at a time in the document: the lap pictures share their arrowheads' ids.
document.getElementById("game").remove();
document.getElementById("viewer").hidden = false;
document.body.classList.add("viewer");
// laps: the reader asked for the laps (kept from ply to ply); lap: 0 for the whole move.
let ply = 0, laps = false, lap = 0;
const board = document.getElementById("board"), where = document.getElementById("where");
const lapText = document.getElementById("laps"), lapButton = document.getElementById("lapbutton");
const lapBack = document.getElementById("lapback"), lapNext = document.getElementById("lapnext");
const items = document.querySelectorAll("#moves li");
function show(k, withLaps, atLap) {
  ply = Math.max(0, Math.min(plies.length - 1, k));
  laps = withLaps;
  const p = plies[ply], drawn = laps && p.trace !== null;
  lap = drawn ? Math.max(0, Math.min(p.frames.length, atLap)) : 0;
  if (drawn && lap) board.innerHTML = p.frames[lap - 1];
  else board.replaceChildren(drawn ? p.trace : p.board);
  lapText.replaceChildren(...(drawn ? p.words : []).map((line, i) => {
    const span = document.createElement("span");
    span.textContent = line + "\n";
    if (lap && i === lap) span.className = "here";
    return span;
  }));
  where.textContent = p.where + (!drawn ? "" : !lap ? ", all laps" : `, lap ${lap} of ${p.laps}`);
  lapButton.disabled = p.trace === null;
  lapButton.textContent = laps ? "Hide laps (L)" : "Show laps (L)";
  lapBack.disabled = !drawn || lap === 0;
  lapNext.disabled = p.frames.length === 0 || lap === p.frames.length;
  items.forEach((li, i) => li.classList.toggle("here", i + 1 === ply));
  if (ply > 0) items[ply - 1].scrollIntoView({block: "nearest"});
}
// Down from the board shows lap 1; up from lap 1 the whole move, all laps at once.
const stepLap = d => {
  if (plies[ply].trace !== null && (laps || d > 0)) show(ply, true, laps ? lap + d : 1);
};
document.getElementById("first").onclick = () => show(0, laps, 0);
document.getElementById("back").onclick = () => show(ply - 1, laps, 0);
document.getElementById("next").onclick = () => show(ply + 1, laps, 0);
document.getElementById("last").onclick = () => show(plies.length - 1, laps, 0);
lapButton.onclick = () => show(ply, !laps, 0);
lapBack.onclick = () => stepLap(-1);
lapNext.onclick = () => stepLap(1);
items.forEach((li, i) => li.onclick = () => show(i + 1, laps, 0));
document.addEventListener("keydown", e => {
  const plyKeys = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies.length - 1};
  const lapKeys = {ArrowUp: -1, ArrowDown: 1};
  if (e.key in plyKeys) show(plyKeys[e.key], laps, 0);
  else if (e.key in lapKeys) stepLap(lapKeys[e.key]);
  else if (e.key === "l" || e.key === "L") show(ply, !laps, 0);
  else return;
  e.preventDefault();
});
// A link may open a ply, with its laps or at one lap: page.html#ply=12&laps, #ply=12&lap=3
const asked = /ply=(\d+)/.exec(location.hash), atLap = /lap=(\d+)/.exec(location.hash);
show(asked ? Number(asked[1]) : 0, /laps|lap=/.test(location.hash),
     atLap ? Number(atLap[1]) : 0);
"""


def _svg(picture: str) -> str:
    return picture.replace(_SVG_NAMESPACE, "", 1)


def _figure(kind: str, picture: str) -> str:
    return f'<figure class="{kind}">{_svg(picture)}</figure>'


def _move(trace: MoveTrace, before: State) -> str:
    """A move's laps: the whole move drawn and in words, and its lap frames (JSON text)."""
    words = [trace.headline(), *(lap.text(sown=True) for lap in trace.laps[:LISTED_LAPS])]
    if trace.total_laps > LISTED_LAPS:
        words.append(f"... {trace.total_laps - LISTED_LAPS} more laps: "
                     f"katra show '{before.text()}' {trace.move} --explain --all")
    if not trace.laps:
        return f'<pre class="laps">{escape(words[0])}</pre>'
    frames = [_svg(trace.svg(lap=k)) for k in range(1, min(len(trace.laps), LISTED_LAPS) + 1)]
    # JSON inside <script>: "</" is written "<\\/" so no string can close the element.
    data = json.dumps(frames).replace("</", "<\\/")
    text = escape("\n".join(words))
    return (f'{_figure("trace", trace.svg())}<pre class="laps">{text}</pre>'
            f'<script type="application/json" class="frames">{data}</script>')


def _plies(states: list[State], moves: list[int]) -> str:
    """One article per ply: the start, then each move (its laps) and the board after it."""
    articles = [f'<article class="ply"><h2>Start ({len(moves)} plies)</h2>'
                f'{_figure("board", states[0].svg())}</article>']
    for ply, action in enumerate(moves, start=1):
        before = states[ply - 1]
        trace = before.explain(action)
        articles.append(
            f'<article class="ply" data-laps="{trace.total_laps}">'
            f"<h2>Ply {ply}/{len(moves)}: {PLAYERS[before.to_move]} plays {escape(trace.move)}</h2>"
            f'<div class="pictures">{_move(trace, before)}'
            f'{_figure("board", states[ply].svg())}</div></article>')
    return "\n".join(articles)


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
<div id="viewer" hidden>
<div id="controls">
<button id="first" title="Home">&laquo; Start</button>
<button id="back" title="Left arrow">&#x25C0; Back</button>
<button id="next" title="Right arrow">Next &#x25B6;</button>
<button id="last" title="End">End &raquo;</button>
<button id="lapbutton">Show laps (L)</button>
<button id="lapback" title="Up arrow">&#x25B2; Lap</button>
<button id="lapnext" title="Down arrow">Lap &#x25BC;</button>
</div>
<div id="where"></div>
<div id="board"></div>
<div id="laps"></div>
<p class="keys">Keys: &#x2190; &#x2192; step, Home/End, L laps, &#x2191; &#x2193; lap by lap.</p>
</div>
<div id="game">
{_plies(states, moves)}
</div>
<div id="result">{escape(result)}</div>
<p class="keys">South moves in <span class="south">teal</span>, North in
<span class="north">purple</span>.</p>
</section>
<section>
<div><b>Moves</b></div>
<ol id="moves">{items}</ol>
</section>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""
