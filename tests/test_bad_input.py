"""Whatever it is given through the public surface, a backend raises a ValueError
(or succeeds) and never crashes or changes the position: generated garbage,
near-miss position texts and wrong types, on both backends.
"""
import pickle
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import katra
from katra._errors import ArgumentError, ArgumentTypeError, IllegalMoveError, PositionError
from katra._games import GAME_IDS, GAMES, MAX_PERFT_DEPTH
from katra._limits import MAX_LAPS, MAX_PLIES, MAX_SEED

anything = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
    st.text(max_size=20), st.binary(max_size=8), st.lists(st.integers(0, 3), max_size=3))


@st.composite
def near_miss_texts(draw):
    """A valid start text with one field mangled, or random text."""
    from katra._reference import Position

    text = Position.initial(draw(st.sampled_from(GAME_IDS))).text()
    how = draw(st.integers(0, 4))
    if how == 0:
        return draw(st.text(max_size=60))
    cut = draw(st.integers(0, len(text)))
    if how == 1:
        return text[:cut]
    if how == 2:
        return text[:cut] + draw(st.text(alphabet=" ,/=SN-0123456789xa", max_size=5)) + text[cut:]
    if how == 3:
        return text.replace("2", draw(st.sampled_from(["-1", "999", "", " ", "2.5", "02"])), 1)
    return text + draw(st.sampled_from([" x", " stores=1,2", " offer=a1", "  ", " owners=S"]))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(near_miss_texts())
def test_position_text_either_reads_or_raises_position_error(text):
    from katra import _core, _reference

    outcomes = []
    for backend in (_core, _reference):
        try:
            outcomes.append(backend.Position.from_text(text).text())
        except PositionError as exc:
            assert str(exc)
            outcomes.append("error")
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # impl is stateless
@given(value=anything)
def test_any_action_value_raises_or_plays(impl, game_id, value):
    position = impl.Position.initial(game_id)
    before = position.text()
    legal = position.legal_actions()
    try:
        position.apply(value)
    except IllegalMoveError:
        assert position.text() == before
    else:
        assert value in legal and type(value) is int


def refused(value, minimum, maximum):
    """The exception a backend raises for an int argument given ``value`` (None: it
    is accepted): ArgumentTypeError unless it is an int (a bool is not), ArgumentError
    outside ``minimum..maximum``."""
    if type(value) is not int:
        return ArgumentTypeError
    if not minimum <= value <= maximum:
        return ArgumentError
    return None


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # impl is stateless
@given(value=anything)
def test_any_argument_value_is_accepted_or_refused_exactly(impl, game_id, value):
    """Each argument of lap_count, perft, divide and playouts is refused exactly when
    it is out of its documented range, with the documented exception class."""
    position = impl.Position.initial(game_id)
    before = position.text()
    legal = position.legal_actions()      # at the start, the sowing candidates
    laps = position.lap_count(legal[0])
    # Jobs on a finished game are cheap at any valid depth, so any value can be tried.
    finished = impl.Position.from_text(
        {"gore": "gore 0,1,0,0/2,0,0,0 S stores=20,25 owners=NNNN/SSSS",
         "djenon-aboure": "djenon-aboure 0,1,0,0,0,0/1,0,0,0,0,0 S stores=20,26"}.get(
            game_id, f"{game_id} " + "/".join(
                ["0" + ",0" * (GAMES[game_id].cols - 1)] * GAMES[game_id].rows) + " S"))
    one_game, two_games = impl.playouts(finished, 1, 0, 5), impl.playouts(finished, 2, 7, 5)
    # (the call, the exception it must raise or None, what it returns if it does not)
    cases = [
        (lambda: position.lap_count(value),
         None if type(value) is int and value in legal else IllegalMoveError,
         lambda laps_of_value: laps_of_value >= 1),
        (lambda: position.lap_count(legal[0], value), refused(value, 1, MAX_LAPS),
         lambda result: result == (laps if value >= laps else None)),
        (lambda: impl.perft(finished, value), refused(value, 0, MAX_PERFT_DEPTH),
         lambda nodes: nodes == (1 if value == 0 else 0)),
        (lambda: impl.divide(finished, value), refused(value, 1, MAX_PERFT_DEPTH),
         lambda counts: list(counts) == []),
        (lambda: impl.playouts(finished, 1, value, 5), refused(value, 0, MAX_SEED),
         lambda result: result == one_game),
        (lambda: impl.playouts(finished, 2, 7, value), refused(value, 0, MAX_PLIES),
         lambda result: result == two_games),
    ]
    for call, error, returned in cases:
        if error is None:
            assert returned(call()), value
        else:
            with pytest.raises(error) as raised:
                call()
            assert type(raised.value) is error, (value, raised.value)
    assert position.text() == before


@pytest.mark.parametrize("bad", [None, "katro", 3, object()])
def test_jobs_need_a_position(impl, bad):
    with pytest.raises(ValueError):
        impl.perft(bad, 1)
    with pytest.raises(ValueError):
        impl.playouts(bad, 1, 0, 10)


def test_pickled_positions_round_trip(impl):
    for game_id in GAME_IDS:
        position = impl.Position.initial(game_id)
        position.apply(position.legal_actions()[-1])
        clone = pickle.loads(pickle.dumps(position))
        assert clone.text() == position.text() and clone == position


def test_perft_depth_has_a_documented_ceiling(impl):
    finished = impl.Position.from_text("katro-4x4 0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 S")
    assert impl.perft(finished, MAX_PERFT_DEPTH) == 0
    with pytest.raises(ValueError, match="depth"):
        impl.perft(finished, MAX_PERFT_DEPTH + 1)
    with pytest.raises(ValueError, match="depth"):
        impl.divide(finished, 10**30)


@pytest.mark.parametrize("games, first_game", [(10**30, 0), (2**62 + 1, 0), (2**62, 1)])
def test_too_many_playouts_are_refused_not_clamped(impl, games, first_game):
    """Both backends refuse a batch past 2**62 games (the core once clamped it and
    started 2**62 games that never returned)."""
    pos = impl.Position.initial("gore")
    with pytest.raises(ValueError, match="games"):
        impl.playouts(pos, games, 0, 10, first_game)


@pytest.mark.parametrize("max_plies", [2**62 + 1, 10**30])
def test_a_ply_limit_past_2_62_is_refused_not_capped(impl, max_plies):
    """Both backends refuse max_plies past 2**62 as the API does (docs/scale.md:
    never silently capped), with the same message; 2**62 itself is a limit."""
    pos = impl.Position.initial("djenon-aboure")
    with pytest.raises(ArgumentError, match=rf"max_plies must be in 0\.\.2\*\*62, got {max_plies}"):
        impl.playouts(pos, 3, 5, max_plies)
    with pytest.raises(ArgumentError, match=r"max_plies must be in 0\.\.2\*\*62"):
        katra.playouts("djenon-aboure", 3, seed=5, max_plies=max_plies)
    assert impl.playouts(pos, 3, 5, 2**62)["unfinished"] == 0


@pytest.mark.parametrize("limit, error", [(2**62 + 1, ArgumentError), (0, ArgumentError),
                                          (1.0, ArgumentTypeError)])
def test_a_lap_limit_out_of_range_is_refused_not_capped(impl, limit, error):
    pos = impl.Position.initial("katro")
    with pytest.raises(error, match=r"limit must be"):
        pos.lap_count(pos.legal_actions()[0], limit)
    assert pos.lap_count(pos.legal_actions()[0], 2**62) == pos.lap_count(pos.legal_actions()[0])


def test_the_core_refuses_a_ply_limit_past_2_62_in_vector_game():
    with pytest.raises(ArgumentError, match=r"max_plies must be in 1\.\.2\*\*62"):
        katra.VectorGame("katro", 2, max_plies=2**62 + 1)
    assert katra.VectorGame("katro", 2, max_plies=2**62).max_plies == 2**62


# ---------------------------------------------------------------- wrong types are katra's errors

def wrong_buffers():
    """Buffers (and non-buffers) that no observation or mask can be written into, with the
    message's words: the same on both backends."""
    import numpy as np
    return [([0] * 52, "out must be a writable buffer .*, not list"),
            ("x" * 52, "out must be a writable buffer .*, not str"),
            (np.zeros(52, np.complex64), "out has items of format 'Zf'; use an integer, bool"),
            (np.zeros(52, object), "out has items of format 'O'; use an integer, bool")]


@pytest.mark.parametrize("case", range(4))
def test_a_wrong_type_of_buffer_is_an_argument_type_error(backend, case):
    out, words = wrong_buffers()[case]
    state = katra.State("katro-4x4", backend=backend)
    for call in (lambda: state.observation(out=out),
                 lambda: katra.observations([state], out)):
        with pytest.raises(ArgumentTypeError, match=words):
            call()
    with pytest.raises(ArgumentTypeError, match=words.replace("52", "16")):
        state.legal_actions_mask(out=out)


def test_a_wrong_size_or_layout_of_buffer_is_an_argument_error(backend):
    import numpy as np
    state = katra.State("katro-4x4", backend=backend)
    for out, words in ((np.zeros(51, np.int32), "^observation: out holds 51 items, expected 52$"),
                       (np.zeros(104, np.int32)[::2], "^observation: out must be C-contiguous$"),
                       (bytes(52), "^observation: out is read-only$")):
        with pytest.raises(ArgumentError, match=words) as caught:
            state.observation(out=out)
        assert not isinstance(caught.value, TypeError)


@pytest.mark.parametrize("actions, words", [
    (None, "actions must be a list or a buffer of integers .*, not NoneType"),
    ("abcd", "actions must be a list or a buffer of integers .*, not str"),
    ({0: 1}, "actions must be a list or a buffer of integers .*, not dict"),
    ("float64", "actions has items of format 'd'; use an integer buffer"),
    ("complex128", "actions has items of format 'Zd'; use an integer buffer"),
])
def test_vector_step_of_a_wrong_type_is_an_argument_type_error(actions, words):
    import numpy as np
    vg = katra.VectorGame("katro-4x4", 4, seed=3)
    if actions in ("float64", "complex128"):
        actions = np.zeros(4, actions)
    with pytest.raises(ArgumentTypeError, match="^step: " + words):
        vg.step(actions)
    assert list(vg.plies) == [0, 0, 0, 0]


def test_read_records_of_a_stream_is_an_argument_type_error():
    import io
    text = katra.State("katro").record()
    with pytest.raises(ArgumentTypeError, match=r"records are read from a str .* not StringIO"):
        katra.read_records(io.StringIO(text))
    with pytest.raises(ArgumentTypeError, match="not bytes"):
        katra.read_records(text.encode())
    assert len(katra.read_records(text)) == 1


def test_check_proof_of_a_binary_file_names_the_file(tmp_path):
    from katra.testing import ProofError, check_proof
    path = tmp_path / "binary.proof"
    path.write_bytes(b"katra-proof 1\nposition \xff\xfe\n")
    with pytest.raises(ProofError, match="^" + re.escape(repr(str(path))) + r" is not a text "
                       r"file \(UTF-8: invalid start byte\): not a katra proof$"):
        check_proof(path)
    with pytest.raises(ProofError, match=r"binary\.proof' is not a text file"):
        check_proof(str(path))
