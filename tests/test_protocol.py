"""The play protocol's lines (docs/protocol.md), written and read back by
katra.match's one module of protocol words, and malformed lines refused with a
ProtocolError that quotes them."""
from __future__ import annotations

import pytest

import katra
from katra.match import (
    PROTOCOL_VERSION,
    GoLimits,
    Handshake,
    Info,
    Option,
    ProtocolError,
    bestmove_line,
    games_line,
    id_line,
    parse_bestmove,
    parse_error,
    parse_games,
    parse_id,
    parse_position,
    parse_protocol,
    parse_protocolok,
    parse_setoption,
    position_line,
    protocol_line,
    protocolok_line,
    setoption_line,
)


@pytest.mark.parametrize("limits, line", [
    (GoLimits(), "go"),
    (GoLimits(stime=60000, ntime=59000, sinc=1000, ninc=0),
     "go stime 60000 ntime 59000 sinc 1000 ninc 0"),
    (GoLimits(movetime=250), "go movetime 250"),
    (GoLimits(nodes=100000), "go nodes 100000"),
    (GoLimits(depth=8), "go depth 8"),
    (GoLimits(infinite=True), "go infinite"),
    (GoLimits(stime=5, depth=3, infinite=True), "go stime 5 depth 3 infinite"),
])
def test_go_lines_both_ways(limits, line):
    assert limits.line() == line
    assert GoLimits.parse(line) == limits


def test_go_reads_any_order_and_runs_of_blanks():
    assert GoLimits.parse("go  depth 4   stime 10 infinite\n") == GoLimits(stime=10, depth=4,
                                                                           infinite=True)


def test_go_clock_is_the_side_to_moves():
    limits = GoLimits(stime=100, ntime=200, sinc=1, ninc=2)
    assert limits.clock(0) == (100, 1) and limits.clock(1) == (200, 2)
    assert GoLimits(stime=100).clock(1) == (None, None)


@pytest.mark.parametrize("line, fragment", [
    ("go depth", "depth needs a value"),
    ("go depth x", "depth needs an integer, not 'x'"),
    ("go depth 0", "depth must be at least 1"),
    ("go nodes -5", "nodes must be at least 1"),
    ("go stime -1", "stime must be at least 0"),
    ("go fast", "unknown go keyword 'fast'"),
    ("stop", "not a go command"),
])
def test_malformed_go_lines(line, fragment):
    with pytest.raises(ProtocolError, match=fragment) as error:
        GoLimits.parse(line)
    assert repr(line) in str(error.value)


@pytest.mark.parametrize("info, line", [
    (Info(depth=6, score=("value", -12), nodes=5000, time=3, nps=1666666, pv=("c1", "a2")),
     "info depth 6 score value -12 nodes 5000 time 3 nps 1666666 pv c1 a2"),
    (Info(depth=9, score=("win", 7)), "info depth 9 score win 7"),
    (Info(score=("loss", 2)), "info score loss 2"),
    (Info(score=("draw", 40)), "info score draw 40"),
    (Info(simulations=800, score=("value", 35), pv=("offer:a1,c1", "accept")),
     "info score value 35 simulations 800 pv offer:a1,c1 accept"),
    (Info(string="material +3 after c1"), "info string material +3 after c1"),
])
def test_info_lines_both_ways(info, line):
    assert info.line() == line
    assert Info.parse(line) == info


@pytest.mark.parametrize("line, fragment", [
    ("info depth", "depth needs a value"),
    ("info nodes many", "nodes needs an integer"),
    ("info score mate 3", "score needs one of value, win, loss, draw"),
    ("info score value x", "score needs a number"),
    ("info seldepth 3", "unknown info keyword 'seldepth'"),
    ("bestmove c1", "not an info line"),
])
def test_malformed_info_lines(line, fragment):
    with pytest.raises(ProtocolError, match=fragment):
        Info.parse(line)


def test_bestmove_id_games_position_setoption_both_ways():
    assert parse_bestmove(bestmove_line("offer:a1,c1")) == "offer:a1,c1"
    assert parse_bestmove("bestmove 265") == "265"
    assert id_line("name", "my engine 2") == "id name my engine 2"
    assert parse_id("id  name   my engine 2") == ("name", "my engine 2")
    assert parse_id(id_line("author", "A. Person")) == ("author", "A. Person")
    ids = katra.GAME_IDS
    assert parse_games(games_line(list(ids))) == ids
    start = "katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S"
    line = position_line(start, ["b1", "d4"])
    assert line == f"position {start} moves b1 d4"
    assert parse_position(line) == (start, ("b1", "d4"))
    assert parse_position(position_line(start)) == (start, ())
    assert parse_position("position gore moves") == ("gore", ())
    assert parse_setoption(setoption_line("simulations", "500")) == ("simulations", "500")
    assert parse_setoption("setoption name book value") == ("book", "")
    assert parse_protocol(protocol_line()) == PROTOCOL_VERSION == 1
    assert parse_protocolok(protocolok_line()) == 1
    assert parse_error("error unknown command 'foo'") == "unknown command 'foo'"
    assert parse_error("ok") is None


@pytest.mark.parametrize("parse, line, fragment", [
    (parse_bestmove, "bestmove", "expected 'bestmove MOVE'"),
    (parse_bestmove, "bestmove c1 ponder a2", "expected 'bestmove MOVE'"),
    (parse_bestmove, "info depth 1", "not a bestmove line"),
    (parse_id, "id name", "expected 'id name NAME'"),
    (parse_id, "id version 3", "expected 'id name NAME'"),
    (parse_games, "games", "games needs at least one game id"),
    (parse_position, "position", "position needs a position text"),
    (parse_position, "position moves c1", "position needs a position text"),
    (parse_setoption, "setoption seed 3", "expected 'setoption name NAME value VALUE'"),
    (parse_protocol, "protocol one", "protocol needs an integer"),
    (parse_protocolok, "protocolok", "protocolok needs an integer"),
])
def test_malformed_lines(parse, line, fragment):
    with pytest.raises(ProtocolError, match=fragment):
        parse(line)


@pytest.mark.parametrize("option, line", [
    (Option("depth", "spin", "0", 0, 64), "option name depth type spin default 0 min 0 max 64"),
    (Option("ponder", "check", "false"), "option name ponder type check default false"),
    (Option("exploration", "string", "1.4"), "option name exploration type string default 1.4"),
    (Option("book", "string", ""), "option name book type string default "),
])
def test_option_lines_both_ways(option, line):
    assert option.line() == line
    assert Option.parse(line) == option


@pytest.mark.parametrize("line, fragment", [
    ("option name x type button default 1", "option type is one of spin, check, string"),
    ("option name x type spin default 1", "a spin option needs 'default N min A max B'"),
    ("option name x type spin default 9 min 0 max 5", "default 9 is not within min and max"),
    ("option name x type spin default 1 min 3 max 2", "max must be at least 3"),
    ("option name x type check default yes", "a check option's default is true or false"),
    ("option x type spin", "expected 'option name NAME type TYPE default VALUE"),
])
def test_malformed_option_lines(line, fragment):
    with pytest.raises(ProtocolError, match=fragment):
        Option.parse(line)


def test_handshake_both_ways():
    handshake = Handshake("demo", ("gore", "katro"), "someone",
                          (Option("seed", "spin", "0", 0, 9),))
    lines = handshake.lines()
    assert lines == ["id name demo", "id author someone", "games gore katro",
                     "option name seed type spin default 0 min 0 max 9", "protocolok 1"]
    assert Handshake.parse(lines) == handshake
    assert Handshake.parse(["id name x", "", "games gore", "protocolok 1"]) == \
        Handshake("x", ("gore",))


@pytest.mark.parametrize("lines, fragment", [
    (["id name x", "games gore"], "ends without 'protocolok'"),
    (["games gore", "protocolok 1"], "no 'id name' line"),
    (["id name x", "protocolok 1"], "no 'games' line"),
    (["id name x", "games gore", "games katro", "protocolok 1"], "a second games line"),
    (["id name x", "games gore", "readyok", "protocolok 1"], "unexpected line"),
    (["error unsupported protocol version"], "the engine answered"),
    (["id name x", "games gore", "protocolok 1", "id name y"], "a line after protocolok"),
])
def test_malformed_handshakes(lines, fragment):
    with pytest.raises(ProtocolError, match=fragment):
        Handshake.parse(lines)


def test_protocol_error_is_a_katra_error():
    assert issubclass(ProtocolError, katra.KatraError)
