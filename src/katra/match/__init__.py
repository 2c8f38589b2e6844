"""katra.match: engines that speak the play protocol (docs/protocol.md), katra's
own players behind it, and a referee for games between them (docs/match.md)."""
from ._check import CheckItem, CheckReport, check_engine
from ._check import report_lines as check_report_lines
from ._engine_process import (
    EngineFault,
    EngineSpec,
    EngineStartError,
    PlayerSeat,
    ProcessSeat,
    Seat,
    start_seat,
)
from ._openings import load_suite, read_suite
from ._players import (
    PLAYER_GAMES,
    PLAYERS,
    AlphaBetaPlayer,
    BuiltinPlayer,
    GreedyPlayer,
    MctsPlayer,
    RandomPlayer,
    describe_players,
    make_player,
    material,
)
from ._protocol import (
    PROTOCOL_VERSION,
    Choice,
    GoLimits,
    Handshake,
    Info,
    Option,
    Player,
    ProtocolError,
    bestmove_line,
    family_wildcards,
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
    plays_game,
    position_line,
    protocol_line,
    protocolok_line,
    setoption_line,
)
from ._referee import (
    DEFAULT_ADJUDICATION_NODES,
    DEFAULT_MOVE_TIMEOUT,
    DEFAULT_TIME_MARGIN,
    GameResult,
    TimeControl,
    play_game,
)
from ._results import ResultsFile, Standing, Standings, game_points
from ._runner import (
    DEFAULT_HANDSHAKE_TIMEOUT,
    TOURNAMENTS,
    GameTask,
    MatchConfig,
    MatchRun,
    check_config,
    run_match,
)

__all__ = ["PROTOCOL_VERSION", "Choice", "GoLimits", "Handshake", "Info", "Option", "Player",
           "ProtocolError", "bestmove_line", "games_line", "id_line", "parse_bestmove",
           "parse_error", "parse_games", "parse_id", "parse_position", "parse_protocol",
           "parse_protocolok", "parse_setoption", "position_line", "protocol_line",
           "protocolok_line", "setoption_line",
           "family_wildcards", "plays_game",
           "PLAYER_GAMES", "PLAYERS", "AlphaBetaPlayer", "BuiltinPlayer", "GreedyPlayer",
           "MctsPlayer", "RandomPlayer", "describe_players", "make_player", "material",
           "EngineFault", "EngineSpec", "EngineStartError", "Seat",
           "ProcessSeat", "PlayerSeat", "start_seat", "load_suite", "read_suite",
           "TimeControl", "GameResult", "play_game", "DEFAULT_TIME_MARGIN",
           "DEFAULT_MOVE_TIMEOUT", "DEFAULT_ADJUDICATION_NODES", "ResultsFile", "Standing",
           "Standings", "MatchConfig", "GameTask", "MatchRun", "run_match", "check_config",
           "TOURNAMENTS", "DEFAULT_HANDSHAKE_TIMEOUT", "CheckItem", "CheckReport",
           "check_engine", "check_report_lines", "game_points"]
