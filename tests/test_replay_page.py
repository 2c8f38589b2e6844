"""``katra replay FILE --html OUT.html``: the page replays the game, lap by lap if asked.

The page is checked here without a browser: its HTML holds the whole game
(what a reader without JavaScript sees: every move's laps and the board after
it), each move's lap frames (JSON text in a script element), and the viewer's
controls and keys.  tools/check_replay_page.py runs the script in headless Chromium.
"""
from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from html import unescape
from html.parser import HTMLParser

import pytest

import katra
from helpers import katra_in_process
from katra.cli.replay_page import LISTED_LAPS, SCRIPT, replay_page

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

#: Katro positions whose move relays 20 laps and 48 laps (more than the whole-move
#: picture draws, and more than the page frames).
RELAY_20 = ("katro 2,2,0,2,1,0/4,1,1,0,3,1/3,3,0,0,0,2/5,6,1,2,1,2/1,0,1,2,7,1/4,2,4,4,2,2 S",
            "e1")
RELAY_48 = ("katro 2,0,1,1,1,0/1,0,1,0,13,10/3,2,3,2,1,1/3,1,5,2,1,0/1,3,1,6,2,0/0,0,0,3,0,2 N",
            "d6")


class PageParser(HTMLParser):
    """Tags, external references, the move list and the buttons."""

    def __init__(self):
        super().__init__()
        self.tags, self.references, self.moves, self.buttons = [], [], [], []
        self.hidden, self._in = set(), None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        for name in ("src", "href"):
            if name in attrs:
                self.references.append(attrs[name])
        if "hidden" in attrs:
            self.hidden.add(attrs.get("id"))
        if tag == "button":
            self.buttons.append(attrs["id"])
        self._in = tag

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "li":
            self.moves.append(data)


def parse_svg(markup):
    """An SVG of the page (written without its namespace, implied in HTML) as XML."""
    return ET.fromstring(markup.replace("<svg ", f'<svg xmlns="{SVG_NAMESPACE}" ', 1))


def plies_of(page):
    """Per ply: its heading, laps counted, pictures by kind, words and frames."""
    plies = []
    for attrs, body in re.findall(r'<article class="ply"([^>]*)>(.*?)</article>', page, re.S):
        frames = re.search(r'<script type="application/json" class="frames">(.*?)</script>',
                           body, re.S)
        outside = body.replace(frames.group(0), "") if frames else body
        words = re.search(r'<pre class="laps">(.*?)</pre>', body, re.S)
        laps = re.search(r'data-laps="(\d+)"', attrs)
        plies.append({
            "where": unescape(re.search(r"<h2>(.*?)</h2>", body).group(1)),
            "laps": int(laps.group(1)) if laps else 0,
            "pictures": dict(re.findall(r'<figure class="(\w+)">(<svg .*?</svg>)</figure>',
                                        outside, re.S)),
            "words": unescape(words.group(1)).split("\n") if words else [],
            "frames": json.loads(frames.group(1)) if frames else [],
        })
    return plies


def random_record(game_id, seed, plies):
    state, rng = katra.State(game_id), random.Random(seed)
    while not state.is_terminal() and len(state.move_stack) < plies:
        state.push(rng.choice(state.legal_actions()))
    return state


def states_of(final):
    states = [final.root()]
    for action in final.move_stack:
        states.append(states[-1].child(action))
    return states


def without_namespace(picture):
    return picture.replace(f' xmlns="{SVG_NAMESPACE}"', "", 1)


@pytest.mark.parametrize("game_id", ["katro-4x4", "gore", "katra-mpantsaka"])
def test_replay_page_is_self_contained_and_holds_every_ply(tmp_path, game_id):
    final = random_record(game_id, 5, 40)
    record = tmp_path / "game.txt"
    record.write_text(final.record(), encoding="utf-8")
    page_path = tmp_path / "game.html"
    result = katra_in_process("replay", str(record), "--html", str(page_path))
    assert result.returncode == 0, result.stderr
    page = page_path.read_text(encoding="utf-8")
    assert page == replay_page(final)
    assert "http://" not in page.replace(f'xmlns="{SVG_NAMESPACE}"', "")
    assert "https://" not in page and "//cdn" not in page
    parser = PageParser()
    parser.feed(page)
    parser.close()
    assert parser.references == []                  # no src= or href= at all
    assert "link" not in parser.tags and "@import" not in page
    assert re.findall(r"url\((?!#head\d\))", page) == []     # only the arrowheads, in the page
    moves = final.move_stack
    with_laps = sum(1 for state, action in zip(states_of(final), moves)
                    if state.explain(action).laps)
    assert parser.tags.count("script") == 1 + with_laps     # the viewer, each move's frames
    assert parser.moves == [final.action_text(a) for a in moves]
    plies = plies_of(page)
    assert len(plies) == len(moves) + 1
    assert plies[0]["where"] == f"Start ({len(moves)} plies)"
    assert f"<title>{final.root().text()}</title>" in plies[0]["pictures"]["board"]
    state = final.root()
    for ply, action in enumerate(moves, start=1):
        before = state.copy()
        state.push(action)
        entry = plies[ply]
        trace = before.explain(action)
        assert entry["where"] == (f"Ply {ply}/{len(moves)}: "
                                  f"{('South', 'North')[before.to_move]} plays {trace.move}")
        assert entry["pictures"]["board"] == without_namespace(state.svg())
        assert entry["words"][0] == trace.headline()
        assert entry["laps"] == trace.total_laps
        if trace.laps:
            assert entry["pictures"]["trace"] == without_namespace(trace.svg())
            parse_svg(entry["pictures"]["trace"])
        else:
            assert "trace" not in entry["pictures"] and entry["frames"] == []
    outcome = final.outcome()
    assert (f"({outcome.result()})" if outcome else "not finished (*)") in page


@pytest.mark.parametrize("position, move", [RELAY_20, RELAY_48], ids=["20 laps", "48 laps"])
def test_every_lap_has_its_frame(position, move):
    """One frame per lap (trace.svg(lap=k)) up to LISTED_LAPS, each listed in words."""
    before = katra.State.from_text(position)
    trace = before.explain(move)
    plies = plies_of(replay_page(before.child(move)))
    assert len(plies) == 2
    entry = plies[1]
    framed = min(trace.total_laps, LISTED_LAPS)
    assert entry["laps"] == trace.total_laps
    assert entry["frames"] == [without_namespace(trace.svg(lap=k)) for k in range(1, framed + 1)]
    for k, frame in enumerate(entry["frames"], start=1):
        drawn = parse_svg(frame)
        arrows = drawn.findall(f".//{{{SVG_NAMESPACE}}}polyline")
        assert [a.findtext(f"{{{SVG_NAMESPACE}}}title") for a in arrows] == [
            trace.laps[k - 1].text()]                           # that lap's arrow alone
    assert entry["words"][1:framed + 1] == [lap.text(sown=True) for lap in trace.laps[:framed]]
    if trace.total_laps > LISTED_LAPS:
        assert entry["words"][-1].startswith(f"... {trace.total_laps - LISTED_LAPS} more laps")
    else:
        assert len(entry["words"]) == framed + 1


def test_the_viewer_steps_lap_by_lap_and_the_page_reads_without_it():
    """Without JavaScript the viewer stays hidden and the game is the page; the script
    shows it, with buttons and keys for the plies and for the laps one by one."""
    parser = PageParser()
    parser.feed(replay_page(katra.State.from_text(RELAY_20[0]).child(RELAY_20[1])))
    assert parser.hidden == {"viewer"}
    assert parser.buttons == ["first", "back", "next", "last", "lapbutton", "lapback", "lapnext"]
    for key in ("ArrowLeft", "ArrowRight", "Home", "End", "ArrowUp", "ArrowDown", '"l"'):
        assert key in SCRIPT
    assert 'getElementById("viewer").hidden = false' in SCRIPT
    assert 'getElementById("game").remove()' in SCRIPT   # one picture at a time
    assert "script.frames" in SCRIPT and "lap=(\\d+)" in SCRIPT
