"""The rulebook docs/rules.md: shipped with the package, numbered as cited, examples true.

* Every block of docs/rules.md that begins with a ``position`` line is run on
  both backends: ``legal`` (every legal move with its action number, in
  ascending order, or ``none``), ``play``, ``result`` (exact position text),
  ``outcome``, ``perft`` (counts at depths 1, 2, ...), ``playouts`` +
  ``tally`` (§6.2 batches).
* Every position text written anywhere in it reads and writes back unchanged.
* Its sections are numbered §1.1 ... §7.6, as code and docs cite them, and
  every ``§N.N`` cited in the shipped files exists.
* ``katra rules [GAME] --full`` prints it from the copy installed inside the
  package; nothing user-visible refers to a rulebook the user does not have.
"""
from __future__ import annotations

import importlib.metadata
import re
import subprocess
from importlib import resources
from pathlib import Path

import pytest

import katra
from helpers import BACKENDS, katra_in_process, katra_program
from katra._reference.counting import SplitMix64

ROOT = Path(__file__).resolve().parent.parent
#: The reference counts perft trees up to this size here (the core counts all).
REFERENCE_PERFT_NODES = 30_000

#: The section numbers every citation relies on (they must never be renumbered).
SECTIONS = {
    1: ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6"],
    2: ["2.1", "2.2", "2.3", "2.4", "2.5"],
    3: ["3.1", "3.2", "3.3", "3.4"],
    4: ["4.1", "4.2", "4.3", "4.4", "4.5"],
    5: ["5.1", "5.2", "5.3"],
    6: ["6.1", "6.2", "6.3"],
    7: ["7.1", "7.2", "7.3", "7.4", "7.5", "7.6"],
}
GAME_SECTION = {"katro": 2, "katro-4x6": 2, "katro-4x4": 2, "katra-mpantsaka": 3,
                "katra-mpantsaka-simplified": 3, "gore": 4, "djenon-aboure": 5}


def shipped_rulebook() -> str:
    return resources.files("katra").joinpath("docs", "rules.md").read_text(encoding="utf-8")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return katra_in_process(*args)


def checked_blocks(text: str) -> list[list[str]]:
    """The fenced blocks whose first line is ``position <text>``, as lists of lines."""
    blocks = re.findall(r"^```text\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    return [block.splitlines() for block in blocks if block.startswith("position ")]


# ---------------------------------------------------------------- shipped with the package

def test_the_package_carries_the_rulebook_of_this_checkout():
    shipped = shipped_rulebook()
    assert shipped.startswith("# The rules of katra's games")
    source = ROOT / "docs" / "rules.md"
    if source.exists():  # running from a checkout: the installed copy must be current
        assert shipped == source.read_text(encoding="utf-8"), (
            "katra/docs/rules.md differs from docs/rules.md: reinstall katra")


def test_sections_are_numbered_as_cited():
    headings = re.findall(r"^(##|###) (\d+)\.(\d*)", shipped_rulebook(), flags=re.MULTILINE)
    top = [int(number) for level, number, _ in headings if level == "##"]
    subs = [f"{number}.{sub}" for level, number, sub in headings if level == "###"]
    assert top == list(SECTIONS)
    assert subs == [s for numbers in SECTIONS.values() for s in numbers]


def test_the_lap_limit_is_the_rulebooks():
    """katra.LAP_LIMIT, which both backends read, is the number §1.3 states (both
    backends reading the same wrong constant would pass every other test)."""
    section = shipped_rulebook().split("\n### 1.3 ")[1].split("\n### ")[0]
    prose = " ".join(section.split())
    limit = re.search(r"A move is legal only if its sowing ends within ([\d,]+) laps", prose)
    first_refused = re.search(r"A move that would need lap ([\d,]+)", prose)
    assert limit and first_refused, "docs/rules.md §1.3 no longer states the lap limit"
    assert int(limit[1].replace(",", "")) == katra.LAP_LIMIT
    assert int(first_refused[1].replace(",", "")) == katra.LAP_LIMIT + 1
    assert "`katra.LAP_LIMIT`" in prose


def shipped_text_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("src/katra", "python_api", "cython_core"):
        files += sorted(p for p in (ROOT / folder).rglob("*")
                        if p.suffix in {".py", ".pyx", ".pxi", ".pyi", ".md"}
                        and "docs" not in p.relative_to(ROOT / folder).parts)
    return [p for p in files if p.is_file()]


def test_every_cited_section_exists():
    if not (ROOT / "src" / "katra").is_dir():
        pytest.fail("the citation check reads the source files of a checkout")
    known = {str(n) for n in SECTIONS} | {s for subs in SECTIONS.values() for s in subs}
    cited = 0
    for path in shipped_text_files():
        for number in re.findall(r"§(\d+(?:\.\d+)?)", path.read_text(encoding="utf-8")):
            assert number in known, f"{path.relative_to(ROOT)} cites §{number}"
            cited += 1
    assert cited > 50


# ---------------------------------------------------------------- the examples are true

def _moves(line: str) -> list[tuple[str, int]]:
    """``a1 (0) b1 (1)`` -> [("a1", 0), ("b1", 1)]."""
    return [(move, int(action)) for move, action in re.findall(r"(\S+) \((\d+)\)", line)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_checked_block_holds(backend):
    counts = {"position": 0, "legal": 0, "play": 0, "result": 0, "outcome": 0, "perft": 0,
              "tally": 0}
    for block in checked_blocks(shipped_rulebook()):
        state = batch = None
        for line in block:
            word, _, value = line.partition(" ")
            value = value.strip()
            where = f"{block[0]} ... {line}"
            if word == "position":
                state = katra.State.from_text(value, backend=backend)
                assert state.text() == value, where
            elif word == "legal" and value == "none":
                assert state.legal_actions() == [] and state.is_terminal(), where
            elif word == "legal":
                expected = _moves(value)
                assert expected and " ".join(f"{m} ({a})" for m, a in expected) == value, where
                assert state.legal_actions() == [a for _, a in expected], where
                assert [state.game.action_text(a) for a in state.legal_actions()] == [
                    m for m, _ in expected], where
            elif word == "play":
                state.push(value)
            elif word == "result":
                assert state.text() == value, where
            elif word == "outcome":
                verdict = re.fullmatch(r"(South wins|North wins|draw)"
                                       r"(?:; South (\d+), North (\d+))?", value)
                assert verdict, where
                outcome = state.outcome()
                winner = {"South wins": 0, "North wins": 1, "draw": None}[verdict.group(1)]
                assert outcome is not None and outcome.winner == winner, where
                if verdict.group(2) is not None:
                    assert outcome.scores == (int(verdict.group(2)), int(verdict.group(3))), where
            elif word == "perft":
                for depth, nodes in enumerate(map(int, value.split()), start=1):
                    if backend == "reference" and nodes > REFERENCE_PERFT_NODES:
                        break
                    assert katra.perft(state, depth, backend=backend) == nodes, (where, depth)
            elif word == "playouts":
                batch = {key: int(number) for key, number in re.findall(r"(\w+)=(\d+)", value)}
                assert set(batch) == {"games", "seed", "max_plies"}, where
            elif word == "tally":
                assert batch is not None, where
                tally = {key: int(number) for key, number in re.findall(r"(\w+)=(\d+)", value)}
                got = katra.playouts(state, batch["games"], seed=batch["seed"],
                                     max_plies=batch["max_plies"], backend=backend)
                assert got == {"games": batch["games"], **tally}, where
            else:
                pytest.fail(f"unknown line in a checked block: {where}")
            if word in counts:
                counts[word] += 1
        assert len(block) > 1, f"a checked block must check something: {block[0]}"
    assert counts["perft"] == 15 and counts["tally"] >= 3, counts
    assert counts["result"] >= 10 and counts["legal"] >= 6 and counts["play"] >= 10, counts
    assert counts["position"] >= 20 and counts["outcome"] >= 3, counts


def test_every_position_text_reads_and_writes_back():
    ids = "|".join(re.escape(game_id) for game_id in sorted(katra.GAME_IDS, key=len,
                                                               reverse=True))
    variants = r"(?:katro|katra-mpantsaka(?:-simplified)?|gore|djenon-aboure)-\d+x\d+-s\d+"
    pattern = re.compile(rf"(?<![\w-])(?:{variants}|{ids}) [0-9,/]+ [SN](?: [a-z]+=[^\s`]+)*")
    texts = pattern.findall(shipped_rulebook())
    assert len(texts) >= 30
    assert sum(bool(re.match(variants, text)) for text in texts) >= 10  # §7's
    for text in texts:
        assert katra.State.from_text(text).text() == text


def test_the_splitmix64_figures():
    text = shipped_rulebook()
    section = text[text.index("### 6.2"):]
    first = re.search(r"first three calls return `(0x[0-9A-F]+)`,\s+`(0x[0-9A-F]+)`\s+and\s+"
                      r"`(0x[0-9A-F]+)`", section)
    assert first, "the splitmix64 test vector is missing from §6.2"
    generator = SplitMix64(0)
    assert [int(number, 16) for number in first.groups()] == [generator.next() for _ in range(3)]
    # Game 0 with seed 0 from the katro-4x4 start: the first draw picks d1.
    start = katra.game("katro-4x4").initial_state()
    actions = start.legal_actions()
    assert "which is 3 modulo 4, and so plays `d1`" in " ".join(section.split())
    assert start.game.action_text(actions[SplitMix64(0).next() % len(actions)]) == "d1"


# ---------------------------------------------------------------- katra rules --full

def test_rules_game_full_prints_the_games_complete_rules():
    sections = re.split(r"(?m)^(?=## \d+\. )", shipped_rulebook())[1:]
    for game_id, number in [("katro", 2), ("gore", 4)]:
        result = run("rules", game_id, "--full")
        assert result.returncode == 0, result.stderr
        wanted = sorted({1, number, 6})
        assert result.stdout == "\n".join(sections[n - 1].rstrip() + "\n" for n in wanted)
        headings = re.findall(r"(?m)^## (\d+)\. ", result.stdout)
        assert headings == [str(n) for n in wanted]
    katro = run("rules", "katro", "--full").stdout
    assert "### 2.3 Laps, relays, captures" in katro and "innermost non-empty row" in katro
    assert "### 1.3 Moves that never end: the lap limit" in katro
    assert "splitmix64" in katro and "Goré" not in katro.split("## 2.")[1].split("## 6.")[0]


def test_rules_full_prints_the_whole_book():
    result = run("rules", "--full")
    assert result.returncode == 0, result.stderr
    assert result.stdout == shipped_rulebook()


@pytest.mark.parametrize("game_id", sorted(GAME_SECTION))
def test_the_summary_points_to_the_full_rules(game_id):
    result = run("rules", game_id)
    assert result.returncode == 0, result.stderr
    assert (f"The complete rules: katra rules {game_id} --full "
            f"(docs/rules.md §{GAME_SECTION[game_id]})") in result.stdout


@pytest.mark.parametrize("args, fragment", [
    (["rules"], "name a GAME, or give --full"),
    (["rules", "chess", "--full"], "unknown game 'chess'"),
])
def test_rules_bad_input(args, fragment):
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_version_in_one_place():
    assert katra.__version__ == importlib.metadata.version("katra")
    result = katra_program("--version")
    assert result.returncode == 0 and result.stdout == f"katra {katra.__version__}\n"


def test_nothing_user_visible_cites_a_missing_rulebook():
    outputs = [run("--help").stdout]
    for command in ("perft", "playouts", "show", "play", "bench", "rules", "replay"):
        outputs.append(run(command, "--help").stdout)
    outputs += [run("rules", game_id).stdout for game_id in ("katro", "gore")]
    assert all(outputs)
    for output in outputs:
        assert "RULES.md" not in output and "../shared" not in output
    docs = resources.files("katra").joinpath("docs")
    for doc in docs.iterdir():  # (an editable install links the whole docs/ folder)
        if doc.is_file():
            assert "RULES.md" not in doc.read_text(encoding="utf-8"), doc.name
