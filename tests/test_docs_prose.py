"""The documents and comments describe the product as it is: no dated lab notes, no
references to the stretches of work or earlier builds they came from (git log keeps the
history, the CHANGELOG what changed for users, release by release), no hand-kept test
count, and a performance page a user reads in minutes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The longest docs/performance.md may grow (lines).
PERFORMANCE_MAX_LINES = 400

#: What tells the story of a text's own making. "session" alone is an ordinary word
#: (a terminal session, a split solve's session); numbered, it names a stretch of work.
HISTORY = {
    "a numbered work session": re.compile(r"\bsessions?[ -]?\d+", re.I),
    "a date": re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b"),
    "an issue number": re.compile(r"\bissues? #?\d+", re.I),
    "a work branch": re.compile(r"\bs\d\d-[a-z]+\b"),
    "an earlier build": re.compile(r"\b(earlier|previous|older) (build|round|session)s?\b", re.I),
    "the filing's build": re.compile(r"\bthe filing\b", re.I),
}

#: A heading that names a stretch of work ("## Session 39: ...", "## Session notes",
#: "## Search, session 33").
LAB_HEADING = re.compile(r"^#+[ \t]+(session\b|.*\bsessions?[ -]?\d)", re.I | re.M)

#: A hand-kept test count ("2,854 tests", "2357 tests").
TEST_COUNT = re.compile(r"\b\d[\d,]* tests\b")


#: What tells, in a changelog, how the code got there rather than what changed for its
#: users: the work branch's name and the numbers of builds between two releases.
CHANGELOG_HISTORY = {
    "the main branch": re.compile(r"\bmain's\b"),
    "an intermediate build's number": re.compile(r"\d[\d.,]*x?\)? before\b"),
    "a speed story": re.compile(r"\d[\d.,]*x?(?: [a-z]+)? -> \d"),
}

#: A document named in prose: ``docs/solve.md`` or ``docs/solve.md, "Proof files"``.
DOC_REFERENCE = re.compile(r'\b(docs/[\w/.-]+\.md)\b(?:,? "([^"]+)")?')


def changelog_history_lines(text: str) -> list[str]:
    """``history_lines`` and the changelog's own kinds of history."""
    found = history_lines(text)
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in CHANGELOG_HISTORY.items():
            if pattern.search(line):
                found.append(f"{number}: {what}: {line.strip()}")
    return found


def section_names(path: Path) -> list[str]:
    """The headings of a Markdown page and its bold run-in headings (``**Conventions.**``)."""
    text = path.read_text(encoding="utf-8")
    names = re.findall(r"^#+[ \t]+(.+?)[ \t]*$", text, re.M)
    names += re.findall(r"^\*\*([^*]+?)\.?\*\*", text, re.M)
    return names


def dead_references(text: str) -> list[str]:
    """Each ``docs/page.md`` or ``docs/page.md, "Section"`` of ``text`` (lines joined)
    that names no page, or no heading of it that starts with the section's name."""
    found = []
    for match in DOC_REFERENCE.finditer(" ".join(text.split())):
        page, section = match.groups()
        path = ROOT / page
        if not path.is_file():
            found.append(f"{page}: no such page")
        elif section and not any(name.startswith(section) for name in section_names(path)):
            found.append(f'{page}, "{section}": no such section')
    return found


def documents() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "RELEASING.md",
            *sorted((ROOT / "docs").rglob("*.md"))]


def sources() -> list[Path]:
    """Every file of code or comments the project writes by hand (not generated C)."""
    found = [*(ROOT / "cython_core").rglob("*.pxi"), *(ROOT / "cython_core").rglob("*.pyx"),
             *(ROOT / "cython_core").rglob("*.pxd"), *(ROOT / "cython_core").rglob("*.pxi.in"),
             *(ROOT / "cython_core").rglob("*.h")]
    for folder in ("python_api", "src/katra", "tests", "benchmarks", "tools", "examples", "fuzz"):
        found += (ROOT / folder).rglob("*.py")
        found += (ROOT / folder).rglob("*.pyi")
        found += (ROOT / folder).rglob("*.pyx")
    generated = {ROOT / "cython_core" / "_dispatch.pxi"}   # written from _dispatch.pxi.in
    return sorted(p for p in set(found) if p not in generated and p.name != Path(__file__).name)


def history_lines(text: str) -> list[str]:
    """Each line of text that tells its own history, with what it tells."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in HISTORY.items():
            if pattern.search(line):
                found.append(f"{number}: {what}: {line.strip()}")
    return found


def test_the_checks_catch_what_they_are_for():
    """Each pattern flags the lab-notebook text it is for and passes ordinary prose."""
    assert history_lines("Measured in session 39 (2026-12-04), after s34-gore merged")
    assert history_lines("the filing's build took 138.9 M instructions")
    assert history_lines("an earlier build gave 0.52x; issue 26's target")
    assert LAB_HEADING.search("# Performance\n\n## Session 36: the same code\n")
    assert LAB_HEADING.search("## Search, session 33")
    assert TEST_COUNT.search("the tests run on every core: 2,854 tests in 2 minutes")
    ordinary = ("A position holds at most 1,000 seeds; the README's session replays the "
                "game; a split solve's session keeps its table; the default suite runs in "
                "about 2 minutes on two cores; 255 seeds fit a lane; tests 1-3 pass.")
    assert not history_lines(ordinary) and not TEST_COUNT.search(ordinary)
    assert not LAB_HEADING.search("## The session of a split solve is its table")
    story = ("Perft 309 -> 221 ns; 1.75x faster (1.50x before), 12 settle (10 before) and "
             "the search 2.1x session 30's and 2.9x main's")
    assert [line.split(": ")[1] for line in changelog_history_lines(story)] == [
        "a numbered work session", "the main branch", "an intermediate build's number",
        "a speed story"]
    assert not changelog_history_lines("* `katra play --nodes N`: the same game before and "
                                       "after -> every machine; 17 plies before the end")
    assert dead_references('docs/solve.md, "Proof files" and docs/api.md') == []
    assert dead_references('docs/performance.md,\n  "Session 35"; docs/gone.md') == [
        'docs/performance.md, "Session 35": no such section', "docs/gone.md: no such page"]


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_documents_tell_no_history(path):
    text = path.read_text(encoding="utf-8")
    assert not LAB_HEADING.findall(text), f"{path.name}: a heading names a work session"
    found = history_lines(text)
    assert not found, f"{path.name} tells its history:\n" + "\n".join(found)


def test_changelog_tells_no_work_history():
    """Released sections and "Unreleased" alike: what changed for a user, not how."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(r"^## \d", text, re.M), "CHANGELOG.md has no released version"
    found = changelog_history_lines(text)
    assert not found, "CHANGELOG.md tells work history:\n" + "\n".join(found)


def test_changelog_names_pages_and_sections_that_exist():
    found = dead_references((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    assert not found, "CHANGELOG.md names what is not there:\n" + "\n".join(found)


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md"])
def test_no_hand_kept_test_count(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    assert not TEST_COUNT.findall(text), f"{name} names a test count, which goes stale"


def test_performance_page_reads_in_minutes():
    lines = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= PERFORMANCE_MAX_LINES, f"docs/performance.md has {len(lines)} lines"


def test_comments_tell_no_history():
    """Comments, docstrings and tests in the code state invariants, not their history."""
    found = []
    for path in sources():
        for line in history_lines(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, "\n".join(found)
