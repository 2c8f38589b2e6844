"""Position text and move text (docs/rules.md §1.1, §1.5).

Positions are read and written through each backend (``impl.Position``);
moves through the shared ``katra._text`` functions.
"""
import pytest

from katra._errors import IllegalMoveError, PositionError
from katra._games import GAME_IDS, GAMES, MAX_TOTAL_SEEDS
from katra._text import action_text, parse_action, parse_position

GORE = GAMES["gore"]
DJENON = GAMES["djenon-aboure"]
KATRO = GAMES["katro"]
KATRO_4X6 = GAMES["katro-4x6"]
KATRO_4X4 = GAMES["katro-4x4"]
MPANTSAKA = GAMES["katra-mpantsaka"]
MPANTSAKA_S = GAMES["katra-mpantsaka-simplified"]

GORE_START = "gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS"

INITIAL_TEXTS = {
    "katro": "katro " + "/".join(["2,2,2,2,2,2"] * 6) + " S",
    "katro-4x6": "katro-4x6 " + "/".join(["2,2,2,2,2,2"] * 4) + " S",
    "katro-4x4": "katro-4x4 " + "/".join(["2,2,2,2"] * 4) + " S",
    "katra-mpantsaka": "katra-mpantsaka " + "/".join(["2,2,2,2,2,2,2,2"] * 4) + " S",
    "katra-mpantsaka-simplified":
        "katra-mpantsaka-simplified " + "/".join(["2,2,2,2,2,2,2,2"] * 4) + " S",
    "gore": GORE_START,
    "djenon-aboure": "djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S stores=0,0",
}


# ---------------------------------------------------------------- round trips

def test_every_game_has_an_initial_text():
    assert set(INITIAL_TEXTS) == set(GAME_IDS)


@pytest.mark.parametrize("game_id", sorted(INITIAL_TEXTS))
def test_initial_text(impl, game_id):
    text = INITIAL_TEXTS[game_id]
    pos = impl.Position.initial(game_id)
    assert pos.text() == text
    assert impl.Position.from_text(text) == pos
    assert impl.Position.from_text(text).text() == text


ROUND_TRIPS = [
    # The example of docs/rules.md §1.5.
    "katro 2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S",
    "katro 0,1,2,3,4,5/6,7,8,9,10,11/0,0,0,0,0,0/1,0,0,0,0,2/0,0,3,0,0,0/12,0,0,0,0,0 N",
    "katro-4x6 0,0,0,0,0,1/2,0,0,0,0,0/0,3,0,0,0,0/0,0,0,0,4,0 N",
    "katro-4x4 0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 S",
    "katra-mpantsaka 0,1,2,3,4,5,6,7/8,9,10,11,12,13,14,15/0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1 N",
    "katra-mpantsaka-simplified 2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/3,0,0,0,0,0,0,0/2,2,2,2,2,2,2,9 S",
    "djenon-aboure 1,5,5,5,1,5/2,6,6,0,5,5 N stores=2,0",
    "djenon-aboure 0,0,0,0,0,0/0,0,0,0,0,0 S stores=24,24",
    "gore 0,6,1,1/0,0,3,0 N stores=8,0 owners=NNNN/SSSS",
    "gore 3,3,2,3/0,4,3,5 S stores=0,0 owners=NNSN/SNSS",
    "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,c1",
    "gore 6,6,6,6/6,6,6,6 S stores=18,0 owners=NNNN/SSSS offer=a2,b2,d2",
    "gore 12,12,6,12/6,6,6,6 N stores=0,7 owners=SSNS/SSSS offer=d1",
    # exactly the maximum number of seeds
    f"gore {MAX_TOTAL_SEEDS - 4},1,1,1/1,0,0,0 S stores=0,0 owners=NNNN/SSSS",
]


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_round_trip(impl, text):
    pos = impl.Position.from_text(text)
    assert pos.text() == text
    again = impl.Position.from_text(pos.text())
    assert again == pos
    assert again.text() == text


def test_fields_are_read_in_flat_index_order(impl):
    # Rows are written from the top (row 2) down; a1 = index 0.
    pos = impl.Position.from_text("gore 0,6,1,1/0,0,3,0 N stores=8,0 owners=NNSN/SNSS")
    assert list(pos.board) == [0, 0, 3, 0, 0, 6, 1, 1]
    assert list(pos.owners) == [0, 1, 0, 0, 1, 1, 0, 1]
    assert tuple(pos.stores) == (8, 0)
    assert pos.to_move == 1
    assert pos.pending_offer == 0
    assert pos.game_id == "gore"
    offer = impl.Position.from_text(
        "gore 6,6,6,6/6,6,6,6 S stores=18,0 owners=NNNN/SSSS offer=a2,b2,d2")
    assert offer.pending_offer == (1 << 4) | (1 << 5) | (1 << 7)
    assert offer.to_move == 0
    katro = impl.Position.from_text(ROUND_TRIPS[1])
    # row 1 (the last written) is indices 0..5, row 6 (the first) is 30..35
    assert list(katro.board[:6]) == [12, 0, 0, 0, 0, 0]
    assert list(katro.board[30:]) == [0, 1, 2, 3, 4, 5]
    assert list(katro.owners) == [0] * 18 + [1] * 18
    assert tuple(katro.stores) == (0, 0)


def test_stores_is_a_tuple(impl):
    # docs/backends.md: ``pos.stores`` is ``tuple[int, int]``.
    assert impl.Position.initial("gore").stores == (0, 0)
    assert impl.Position.from_text("djenon-aboure 1,5,5,5,1,5/2,6,6,0,5,5 N stores=2,0"
                                   ).stores == (2, 0)
    assert impl.Position.initial("katro").stores == (0, 0)


# ---------------------------------------------------------------- canonical writing

@pytest.mark.parametrize("given, written", [
    # defaults filled in
    ("gore 6,6,6,6/6,6,6,6 S", GORE_START),
    ("gore 6,6,6,6/6,6,6,6 S stores=0,0", GORE_START),
    ("gore 6,6,6,6/6,6,6,6 S owners=NNNN/SSSS", GORE_START),
    ("gore 5,6,6,6/6,6,6,6 N stores=1,0", "gore 5,6,6,6/6,6,6,6 N stores=1,0 owners=NNNN/SSSS"),
    ("gore 6,6,6,6/6,6,6,6 S owners=NNNS/SSSS",
     "gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNS/SSSS"),
    ("djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 N",
     "djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 N stores=0,0"),
    # keys in another order come back in the order stores, owners, offer
    ("gore 6,6,6,6/6,6,6,6 S owners=NNNN/SSSS stores=3,4",
     "gore 6,6,6,6/6,6,6,6 S stores=3,4 owners=NNNN/SSSS"),
    ("gore 6,6,6,6/6,6,6,6 N offer=a1 owners=NNNN/SSSS stores=0,6",
     "gore 6,6,6,6/6,6,6,6 N stores=0,6 owners=NNNN/SSSS offer=a1"),
    ("gore 6,6,6,6/6,6,6,6 N offer=b1,d1 stores=0,12",
     "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=b1,d1"),
])
def test_canonical_writing(impl, given, written):
    pos = impl.Position.from_text(given)
    assert pos.text() == written
    assert impl.Position.from_text(written) == pos


def test_offer_is_written_only_while_pending(impl):
    pos = impl.Position.from_text("gore 6,6,6,6/6,6,6,6 S stores=0,12 owners=NNNN/SSSS")
    assert "offer=" not in pos.text()
    pos.apply(8 + 0b101)
    assert pos.text().endswith(" offer=a1,c1")
    pos.apply(266)
    assert "offer=" not in pos.text()


def test_equal_positions_equal_texts(impl):
    a = impl.Position.from_text("gore 6,6,6,6/6,6,6,6 S owners=NNNN/SSSS stores=3,4")
    b = impl.Position.from_text("gore 6,6,6,6/6,6,6,6 S stores=3,4")
    assert a == b
    assert a.text() == b.text()
    c = impl.Position.from_text("gore 6,6,6,6/6,6,6,6 N stores=3,4")
    assert a != c


# ---------------------------------------------------------------- rejections

def rejects(impl, text, *fragments):
    with pytest.raises(PositionError) as info:
        impl.Position.from_text(text)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), (text, message)
    return message


@pytest.mark.parametrize("text", [
    "chess 6,6,6,6/6,6,6,6 S",
    "Gore 6,6,6,6/6,6,6,6 S",
    "katro6x6 2,2/2,2 S",
])
def test_unknown_game_id(impl, text):
    rejects(impl, text, "unknown game", text.split(" ")[0])


@pytest.mark.parametrize("text, key", [
    ("gore 6,6,6,6/6,6,6,6 S colour=red", "colour"),
    ("gore 6,6,6,6/6,6,6,6 S store=0,0", "store=0,0"),
    ("djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S score=1,1", "score"),
])
def test_unknown_key(impl, text, key):
    rejects(impl, text, key)


@pytest.mark.parametrize("text, key", [
    (INITIAL_TEXTS["katro"] + " stores=0,0", "stores"),
    (INITIAL_TEXTS["katro-4x4"] + " owners=NNNN/NNNN/SSSS/SSSS", "owners"),
    (INITIAL_TEXTS["katra-mpantsaka"] + " stores=0,0", "stores"),
    ("djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S owners=NNNNNN/SSSSSS", "owners"),
    ("djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 N stores=6,0 offer=a1", "offer"),
])
def test_key_not_allowed_for_the_game(impl, text, key):
    rejects(impl, text, key)


@pytest.mark.parametrize("text, key", [
    ("gore 6,6,6,6/6,6,6,6 S stores=0,0 stores=0,0", "stores"),
    ("gore 6,6,6,6/6,6,6,6 S owners=NNNN/SSSS stores=0,0 owners=NNNN/SSSS", "owners"),
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 offer=a1 offer=b1", "offer"),
    ("djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S stores=0,0 stores=1,1", "stores"),
])
def test_duplicate_key(impl, text, key):
    rejects(impl, text, key, "twice")


@pytest.mark.parametrize("text, fragment", [
    ("gore 6,6,6,6 S", "2 rows"),
    ("gore 6,6,6,6/6,6,6,6/6,6,6,6 S", "2 rows"),
    ("katro 2,2,2,2,2,2/2,2,2,2,2,2 S", "6 rows"),
    ("djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4/ S", "2 rows"),
    ("gore 6,6,6,6/6,6,6,6 S owners=NNNN", "owners"),
    ("gore 6,6,6,6/6,6,6,6 S owners=NNNN/SSSS/SSSS", "owners"),
])
def test_wrong_row_count(impl, text, fragment):
    rejects(impl, text, fragment)


@pytest.mark.parametrize("text, fragment", [
    ("gore 6,6,6/6,6,6,6 S", "row 2"),
    ("gore 6,6,6,6/6,6,6,6,6 S", "row 1"),
    ("katro-4x4 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2 S", "row 1"),
    ("djenon-aboure 4,4,4,4,4,4,4/4,4,4,4,4,4 S", "row 2"),
    ("gore 6,6,6,6/6,6,6,6 S owners=NNN/SSSS", "owners"),
    ("gore 6,6,6,6/6,6,6,6 S owners=NNNN/SSSSS", "owners"),
])
def test_wrong_column_count(impl, text, fragment):
    message = rejects(impl, text, fragment)
    assert "expected" in message


@pytest.mark.parametrize("bad", ["-1", "1.5", "x", "", "+3", "1e2", "0x1"])
def test_count_not_a_non_negative_integer(impl, bad):
    rejects(impl, f"gore 6,6,6,6/6,{bad},6,6 S", "non-negative integer")
    rejects(impl, f"djenon-aboure {bad},4,4,4,4,4/4,4,4,4,4,4 S", "non-negative integer")
    rejects(impl, f"gore 6,6,6,6/6,6,6,6 S stores={bad},0", "non-negative integer")


def test_stores_needs_two_counts(impl):
    rejects(impl, "gore 6,6,6,6/6,6,6,6 S stores=0", "stores")
    rejects(impl, "gore 6,6,6,6/6,6,6,6 S stores=0,0,0", "stores")


def test_total_above_maximum(impl):
    over = MAX_TOTAL_SEEDS + 1
    rejects(impl, f"katro-4x4 {over},0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 S", str(MAX_TOTAL_SEEDS))
    # stores count too
    rejects(impl, f"gore 1,0,0,0/0,0,0,0 S stores={MAX_TOTAL_SEEDS},0", str(MAX_TOTAL_SEEDS))
    rejects(impl, "djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S stores=500,453", str(MAX_TOTAL_SEEDS))
    # exactly the maximum is fine
    impl.Position.from_text(f"gore 1,0,0,0/0,0,0,0 S stores={MAX_TOTAL_SEEDS - 1},0")


@pytest.mark.parametrize("owners", ["NNNX/SSSS", "NNNN/sSSS", "NN,N/SSSS", "NNNN/SS0S"])
def test_owner_letter_other_than_s_or_n(impl, owners):
    rejects(impl, f"gore 6,6,6,6/6,6,6,6 S owners={owners}", "owner")


@pytest.mark.parametrize("text, fragment", [
    # offered hole not owned by the offerer (the player NOT to move)
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a2", "not owned"),
    ("gore 6,6,6,6/6,6,6,6 S stores=12,0 owners=NNNN/SSSS offer=a1", "not owned"),
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SNSS offer=a1,b1", "not owned"),
    # more than 3 holes
    ("gore 6,6,6,6/6,6,6,6 N stores=0,30 owners=NNNS/SSSS offer=a1,b1,c1,d1", "at most 3"),
    # offerer keeping no hole
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/NNSS offer=c1,d1", "at least one"),
    ("gore 6,6,6,6/6,6,6,6 S stores=18,0 owners=NSNN/SSSS offer=a2,c2,d2", "at least one"),
    # answering player's store below 6k
    ("gore 6,6,6,6/6,6,6,6 N stores=0,11 owners=NNNN/SSSS offer=a1,c1", "store"),
    ("gore 6,6,6,6/6,6,6,6 N stores=30,5 owners=NNNN/SSSS offer=a1", "store"),
    ("gore 6,6,6,6/6,6,6,6 S stores=17,0 owners=NNNN/SSSS offer=a2,b2,c2", "store"),
    # offerer owning no seeds (could only have passed)
    ("gore 6,6,6,6/0,0,0,0 N stores=0,6 owners=NNNN/SSSS offer=a1", "no seeds"),
    # every hole below 3 (the game had ended)
    ("gore 2,2,2,2/1,1,1,2 N stores=0,6 owners=NNNN/SSSS offer=a1", "fewer than 3"),
    # duplicate or unsorted squares
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,a1", "distinct"),
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=c1,a1", "order"),
    ("gore 6,6,6,6/6,6,6,6 S stores=12,0 owners=NNNN/SSSS offer=b2,a2", "order"),
    # square off the board / not a square
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=e1", "e1"),
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a3", "a3"),
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a0", "a0"),
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=", "square"),
    ("gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,", "square"),
])
def test_offer_the_rules_could_not_produce(impl, text, fragment):
    message = rejects(impl, text, fragment)
    assert "offer" in message.lower()


def test_offer_limits_are_exact(impl):
    # Right at the limits the same offers are accepted.
    ok = [
        "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNN/SSSS offer=a1,c1",
        "gore 6,6,6,6/6,6,6,6 N stores=0,18 owners=NNNN/SSSS offer=a1,b1,c1",
        "gore 6,6,6,6/0,0,0,1 N stores=0,18 owners=NNNN/SSSS offer=a1,b1,c1",
        "gore 2,2,2,2/1,1,1,3 N stores=0,6 owners=NNNN/SSSS offer=a1",
        "gore 6,6,6,6/6,6,6,6 N stores=0,12 owners=NNNS/SSSN offer=d2",
    ]
    for text in ok:
        assert impl.Position.from_text(text).text() == text


@pytest.mark.parametrize("letter", ["X", "s", "n", "SN", "0", "South"])
def test_bad_to_move_letter(impl, letter):
    rejects(impl, f"gore 6,6,6,6/6,6,6,6 {letter} stores=0,0", "to-move", repr(letter))


@pytest.mark.parametrize("text, fragment", [
    (GORE_START + " junk", "junk"),
    (GORE_START + " =", "="),
    (INITIAL_TEXTS["katro-4x4"] + " S", "'S'"),
    (INITIAL_TEXTS["katro-4x4"] + " 2,2", "2,2"),
    ("djenon-aboure 4,4,4,4,4,4/4,4,4,4,4,4 S stores=0,0 x", "'x'"),
])
def test_trailing_garbage(impl, text, fragment):
    rejects(impl, text, fragment)


@pytest.mark.parametrize("text", [
    "gore  6,6,6,6/6,6,6,6 S",
    "gore 6,6,6,6/6,6,6,6  S",
    "gore 6,6,6,6/6,6,6,6 S  stores=0,0",
    "gore 6,6,6,6/6,6,6,6 S stores=0,0  owners=NNNN/SSSS",
    "gore\t6,6,6,6/6,6,6,6 S",
])
def test_double_spaces(impl, text):
    rejects(impl, text, "one space")


@pytest.mark.parametrize("text", ["", "gore", "gore 6,6,6,6/6,6,6,6"])
def test_missing_fields(impl, text):
    rejects(impl, text, "<game-id> <rows> <to-move>")


# ---------------------------------------------------------------- move text

@pytest.mark.parametrize("spec, text, action", [
    (KATRO, "a1", 0),
    (KATRO, "f1", 5),
    (KATRO, "a2", 6),
    (KATRO, "c2", 8),
    (KATRO, "f6", 35),
    (KATRO_4X6, "f4", 23),
    (KATRO_4X6, "b3", 13),
    (KATRO_4X4, "a1", 0),
    (KATRO_4X4, "d4", 15),
    (KATRO_4X4, "c2", 6),
    (MPANTSAKA, "a1+", 0),
    (MPANTSAKA, "a1-", 1),
    (MPANTSAKA, "c2+", 20),
    (MPANTSAKA, "c2-", 21),
    (MPANTSAKA, "h4-", 63),
    (MPANTSAKA_S, "c2+", 20),
    (MPANTSAKA_S, "h1-", 15),
    (DJENON, "a1", 0),
    (DJENON, "b1", 1),
    (DJENON, "f1", 5),
    (DJENON, "a2", 6),
    (DJENON, "f2", 11),
    (DJENON, "pass", 12),
    (GORE, "a1", 0),
    (GORE, "b1", 1),
    (GORE, "d1", 3),
    (GORE, "a2", 4),
    (GORE, "d2", 7),
    (GORE, "offer:a1", 9),
    (GORE, "offer:a1,c1", 13),
    (GORE, "offer:b1,c1,d1", 8 + 14),
    (GORE, "offer:a2", 24),
    (GORE, "offer:a2,b2,d2", 8 + 16 + 32 + 128),
    (GORE, "offer:d1,a2", 8 + 8 + 16),
    (GORE, "offer:b2,c2,d2", 8 + 32 + 64 + 128),
    (GORE, "pass", 264),
    (GORE, "accept", 265),
    (GORE, "decline", 266),
])
def test_move_text_and_action(spec, text, action):
    assert parse_action(spec, text) == action
    assert action_text(spec, action) == text


@pytest.mark.parametrize("spec", list(GAMES.values()), ids=lambda s: s.id)
def test_every_action_round_trips(spec):
    count = 0
    for action in range(spec.num_actions):
        if spec.id == "gore" and 8 <= action < 264:
            bits = bin(action - 8).count("1")
            if not 1 <= bits <= 3:
                with pytest.raises(IllegalMoveError):
                    action_text(spec, action)
                continue
        text = action_text(spec, action)
        assert parse_action(spec, text) == action
        count += 1
    expected = {"katro": 36, "katro-4x6": 24, "katro-4x4": 16, "katra-mpantsaka": 64,
                "katra-mpantsaka-simplified": 64, "djenon-aboure": 13,
                # 8 sows + C(8,1)+C(8,2)+C(8,3) offers + pass, accept, decline
                "gore": 8 + 8 + 28 + 56 + 3}
    assert count == expected[spec.id]


def test_gore_offer_squares_in_any_order_parse_to_the_same_action():
    # Reading is lenient about order; writing lists squares in index order.
    assert parse_action(GORE, "offer:c1,a1") == 13
    assert action_text(GORE, 13) == "offer:a1,c1"


def test_move_text_on_a_position(impl):
    # The text of every legal action read back gives that action.
    pos = impl.Position.from_text("gore 1,0,0,0/5,5,0,0 N stores=12,0 owners=NNNN/SSSS")
    texts = [action_text(GORE, a) for a in pos.legal_actions()]
    assert texts == ["a2", "offer:a2", "offer:b2", "offer:a2,b2", "offer:c2",
                     "offer:a2,c2", "offer:b2,c2", "offer:d2", "offer:a2,d2",
                     "offer:b2,d2", "offer:c2,d2"]
    assert [parse_action(GORE, t) for t in texts] == pos.legal_actions()


@pytest.mark.parametrize("spec, text", [
    (KATRO, "g1"),
    (KATRO, "a7"),
    (KATRO, "a0"),
    (KATRO, ""),
    (KATRO, "pass"),
    (KATRO, "1a"),
    (KATRO, "c2+"),
    (KATRO_4X4, "e1"),
    (KATRO_4X4, "a5"),
    (MPANTSAKA, "c2"),
    (MPANTSAKA, "c2*"),
    (MPANTSAKA, "+"),
    (MPANTSAKA, "i1+"),
    (MPANTSAKA, "a5-"),
    (DJENON, "g1"),
    (DJENON, "a3"),
    (DJENON, "passs"),
    (DJENON, "accept"),
    (GORE, "e1"),
    (GORE, "a3"),
    (GORE, "offer:"),
    (GORE, "offer:a1,a1"),
    (GORE, "offer:a1,b1,c1,d1"),
    (GORE, "offer:e1"),
    (GORE, "offer:a1,"),
    (GORE, "offer a1"),
    (GORE, "resign"),
    (GORE, "c2+"),
])
def test_move_text_rejections(spec, text):
    with pytest.raises(IllegalMoveError):
        parse_action(spec, text)


@pytest.mark.parametrize("value", [None, 5, b"a1", ["a1"]])
def test_move_text_must_be_a_str(value):
    with pytest.raises(IllegalMoveError) as info:
        parse_action(GORE, value)
    assert "str" in str(info.value)


@pytest.mark.parametrize("spec, action", [
    (KATRO, 36), (KATRO, -1), (KATRO_4X4, 16), (KATRO_4X6, 24),
    (MPANTSAKA, 64), (MPANTSAKA_S, -1), (DJENON, 13), (DJENON, -1),
    (GORE, 267), (GORE, -1),
    (GORE, 8),                 # offer of no hole
    (GORE, 8 + 15),            # offer of four holes
    (GORE, 8 + 255),           # offer of all eight
    (GORE, True), (GORE, False), (DJENON, "a1"), (KATRO, 1.0), (KATRO, None),
])
def test_action_text_rejections(spec, action):
    with pytest.raises(IllegalMoveError):
        action_text(spec, action)


def test_a_row_of_one_hole_is_named_in_the_singular():
    with pytest.raises(PositionError, match="row 4 has 1 hole, expected 4"):
        parse_position("katro-4x4 2/2,2,2,2/2,2,2,2/2,2,2,2 S")
    with pytest.raises(PositionError, match="row 4 has 2 holes, expected 4"):
        parse_position("katro-4x4 2,2/2,2,2,2/2,2,2,2/2,2,2,2 S")
