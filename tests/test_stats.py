"""katra.stats: hand-worked values, the chess testing frameworks' figures, properties,
and bad input.

"The frameworks' figures" below were computed by the frameworks' own code from the
same counts: fishtest (official-stockfish/fishtest at commit b8eecff2,
server/fishtest/stats: ``LLRcalc.LLR_normalized``, ``LLRcalc.LLR_logistic``,
``LLRcalc.LLR_normalized_alt``, ``stat_util.LLRlegacy`` on counts whose zeros are
replaced by 0.001 as ``LLRcalc.regularize`` does, and ``stat_util.get_elo``), the
published test cases of fastchess (Disservin/fastchess at commit 74deac23,
app/tests/sprt_test.cpp and elo_test.cpp, which hold to 1%: doctest's
``Approx(...).epsilon(0.01)``) and cutechess-cli's LOS formula (cutechess/cutechess at
commit 5e84232b, projects/lib/src/elo.cpp).
"""
from __future__ import annotations

import doctest
import math
import random

import pytest

import katra
from katra import stats
from katra.stats import elo, elo_pentanomial, ladder, los, sprt

# ---------------------------------------------------------------- elo

def test_elo_hand_worked():
    # one win, one loss: score ½, Elo 0; variance ¼, stderr sqrt(1/8)
    assert elo(wins=1, draws=0, losses=1) == (0.0, math.inf)  # ½ ± 0.69 leaves [0, 1]
    assert elo(wins=5, draws=0, losses=5)[0] == 0.0
    # 3 wins, 1 loss: s = ¾, Elo = 400·log10(3); var = 3/16, stderr = sqrt(3/64)
    diff, half = elo(wins=30, draws=0, losses=10)
    assert diff == pytest.approx(400 * math.log10(3), abs=1e-12)
    stderr = math.sqrt(3 / 16 / 40)
    z = 1.959963984540054

    def to_elo(s):
        return -400 * math.log10(1 / s - 1)
    assert half == pytest.approx((to_elo(0.75 + z * stderr) - to_elo(0.75 - z * stderr)) / 2,
                                 abs=1e-9)
    # all draws: score ½ with no variance
    assert elo(wins=0, draws=7, losses=0) == (0.0, 0.0)


def test_elo_edges():
    assert all(math.isnan(x) for x in elo(wins=0, draws=0, losses=0))
    assert elo(wins=3, draws=0, losses=0) == (math.inf, math.inf)
    assert elo(wins=0, draws=0, losses=3) == (-math.inf, math.inf)
    # interval reaching a score of 1: a finite Elo, no finite half-width
    diff, half = elo(wins=9, draws=0, losses=1)
    assert diff == pytest.approx(400 * math.log10(9)) and half == math.inf


@pytest.mark.parametrize("wins, draws, losses, diff, half", [
    (136, 111, 96, 40.70, 30.43),   # fastchess EloWDL 2
    (96, 111, 136, -40.70, 30.43),  # the same, mirrored
])
def test_elo_frameworks_figures(wins, draws, losses, diff, half):
    got = elo(wins=wins, draws=draws, losses=losses)
    assert got == pytest.approx((diff, half), abs=0.005)
    # fishtest's stat_util.get_elo([96, 111, 136]): 40.702458186527075, 30.42721794360099
    if wins == 136:
        assert got == pytest.approx((40.702458186527075, 30.42721794360099), abs=1e-9)


@pytest.mark.parametrize("pentanomial, diff, half", [
    ((34, 54, 63, 64, 75), 55.58, 27.65),          # fastchess EloPentanomial 1
    ((332, 433, 498, 333, 334), -8.64, 10.33),     # fastchess EloPentanomial 2
    ((7895, 8757, 5685, 568, 9999), -21.04, 2.95),  # fastchess EloPentanomial 3
])
def test_elo_pentanomial_frameworks_figures(pentanomial, diff, half):
    got = elo_pentanomial(pentanomial)
    assert got[0] == pytest.approx(diff, abs=0.005)
    assert got[1] == pytest.approx(half, rel=0.01)


def test_elo_pentanomial_fishtest_figure():
    # fishtest stat_util.get_elo([332, 433, 498, 333, 334])
    assert elo_pentanomial((332, 433, 498, 333, 334)) == pytest.approx(
        (-8.64266726796901, 10.334194424393056), abs=1e-9)


def test_elo_pentanomial_hand_worked():
    # every pair 1-1: score ½, no variance
    assert elo_pentanomial((0, 0, 5, 0, 0)) == (0.0, 0.0)
    # pairs scoring 2 and 0 alike: score ½, pair variance ¼ (scores 1 and 0 per game)
    diff, half = elo_pentanomial((50, 0, 0, 0, 50))
    assert diff == 0.0
    s = 1.959963984540054 * math.sqrt(0.25 / 100)
    assert half == pytest.approx(400 * math.log10((0.5 + s) / (0.5 - s)), abs=1e-9)
    assert elo_pentanomial((0, 0, 0, 0, 3)) == (math.inf, math.inf)
    assert all(math.isnan(x) for x in elo_pentanomial((0, 0, 0, 0, 0)))


def test_elo_pentanomial_wider_than_trinomial_when_pairs_are_split():
    """Pairs 2-0 and 0-2 (each side winning its first-move game) hide a coin flip in
    the trinomial count; the same games as 1-1 pairs are certain."""
    assert elo_pentanomial((0, 0, 100, 0, 0))[1] == 0.0
    assert elo(wins=100, draws=0, losses=100)[1] > 0.0


def test_elo_grows_with_wins_and_shrinks_with_losses():
    previous = -math.inf
    for wins in range(1, 40):
        diff = elo(wins=wins, draws=10, losses=20)[0]
        assert diff > previous
        previous = diff
        assert elo(wins=20, draws=10, losses=wins)[0] < elo(wins=20, draws=10, losses=wins - 1)[0]


def test_elo_is_antisymmetric():
    for won, drawn, lost in ((3, 4, 5), (100, 7, 20), (1, 1, 0)):
        a = elo(wins=won, draws=drawn, losses=lost)
        b = elo(wins=lost, draws=drawn, losses=won)
        assert a[0] == pytest.approx(-b[0]) and a[1] == pytest.approx(b[1])


# ---------------------------------------------------------------- los

def test_los_hand_worked():
    assert los(wins=4, draws=9, losses=4) == 0.5
    assert los(wins=0, draws=3, losses=0) == 0.5
    # (W - L) / sqrt(2(W + L)) = 2 / sqrt(8): ½(1 + erf(1/sqrt 2)) = Φ(1)
    assert los(wins=3, draws=0, losses=1) == pytest.approx(0.8413447460685429, abs=1e-12)
    assert los(wins=1, draws=0, losses=3) == pytest.approx(1 - 0.8413447460685429, abs=1e-12)
    # draws do not count
    assert los(wins=3, draws=50, losses=1) == los(wins=3, draws=0, losses=1)


def test_los_is_cutechess_figure():
    # cutechess-cli's Elo::LOS() formula for 136 wins and 96 losses: 99.568...% (it prints a
    # percentage)
    assert los(wins=136, draws=111, losses=96) == pytest.approx(0.9956818916198402, abs=1e-12)


# ---------------------------------------------------------------- sprt

#: (wins, draws, losses, elo0, elo1, LLR normalized, logistic, bayesian): fishtest's
#: LLR_normalized, LLR_logistic and LLRlegacy (module docstring)
TRINOMIAL_FIGURES = [
    (36433, 68692, 36027, 0, 2, 0.923293, -0.002982, 0.821140),
    (10871, 20431, 10650, -1.75, 0.25, 2.297500, 3.496019, 2.483079),
    (4250, 0, 0, 0, 10, 120.548268, 120.564679, 141.598446),
    (21404, 40708, 21184, 0.5, 2.5, -0.298985, -1.571889, -0.460401),
    (65388, 56553, 65804, -3, 1, 0.491712, 2.049043, 1.128637),
    (30, 20, 10, 0, 5, 0.346418, 0.423169, 0.390680),
    (9, 112, 79, -3, 7, -3.067544, -4.626876, -3.454399),
    (7, 0, 3, 0, 5, 0.056530, 0.056535, 0.056536),
    (88, 31837, 18075, -10, -5, -416.418076, -696.471619, -498.817716),
    (17792, 16473, 15734, 0, 2, 13.639214, 16.433640, 14.775991),
]

#: (pentanomial, elo0, elo1, LLR normalized, logistic): fishtest's LLR_normalized and
#: LLR_logistic (module docstring)
PENTANOMIAL_FIGURES = [
    ((365, 16618, 36229, 16974, 390), 0, 2, 2.250368, -0.005920),
    ((127, 4883, 10712, 5150, 104), -1.75, 0.25, 3.010154, 6.862003),
    ((0, 0, 0, 0, 5550), 0, 5, 111.797555, 79.296251),
    ((223, 9863, 21279, 10037, 246), 0.5, 2.5, 0.406799, -3.074126),
    ((10789, 19328, 33806, 19402, 10543), -3, 1, 0.300870, 2.131068),
    ((39, 2226, 31451, 2412, 40), 0.764, 3.439, 2.162941, -27.865237),
    ((1, 2, 3, 2, 1), 0, 5, -0.001864, -0.002795),
    ((0, 1, 5, 3, 0), 0, 5, 0.058558, 0.120424),
    ((3, 10, 30, 12, 2), -2, 2, 0.000002, -0.000015),
    ((2115, 5887, 8890, 2075, 11033), -10, 0, 442.230478, 459.055735),
]


@pytest.mark.parametrize("wins, draws, losses, elo0, elo1, normalized, logistic, bayesian",
                         TRINOMIAL_FIGURES)
def test_sprt_trinomial_is_fishtests(wins, draws, losses, elo0, elo1, normalized, logistic,
                                     bayesian):
    for model, figure in (("normalized", normalized), ("logistic", logistic),
                          ("bayesian", bayesian)):
        test = sprt(elo0=elo0, elo1=elo1, model=model, wins=wins, draws=draws, losses=losses)
        assert test.llr == pytest.approx(figure, abs=1e-6), model


@pytest.mark.parametrize("pentanomial, elo0, elo1, normalized, logistic", PENTANOMIAL_FIGURES)
def test_sprt_pentanomial_is_fishtests(pentanomial, elo0, elo1, normalized, logistic):
    for model, figure in (("normalized", normalized), ("logistic", logistic)):
        test = sprt(elo0=elo0, elo1=elo1, model=model, pentanomial=pentanomial)
        assert test.llr == pytest.approx(figure, abs=1e-6), model


#: fastchess's published cases (app/tests/sprt_test.cpp): (model, counts, elo0, elo1,
#: LLR to two decimals); a pentanomial is (p0, ..., p4), fastchess's WL and DD pairs summed
FASTCHESS_FIGURES = [
    ("normalized", (36433, 68692, 36027), 0, 2, 0.92),
    ("normalized", (10871, 20431, 10650), -1.75, 0.25, 2.30),
    ("normalized", (4250, 0, 0), 0, 10, 120.56),
    ("logistic", (21404, 40708, 21184), 0.5, 2.5, -1.57),
    ("logistic", (57433, 106593, 57030), 0, 2, -2.59),
    ("bayesian", (68965, 128429, 68526), 0, 2, -1.26),
    ("bayesian", (21629, 41111, 21484), 0.5, 2.5, -1.13),
    ("normalized", (365, 16618, 36229, 16974, 390), 0, 2, 2.25),
    ("normalized", (127, 4883, 10712, 5150, 104), -1.75, 0.25, 3.01),
    ("normalized", (0, 0, 0, 0, 5550), 0, 5, 111.82),
    ("logistic", (223, 9863, 21279, 10037, 246), 0.5, 2.5, -3.07),
    ("logistic", (871, 26175, 55983, 26678, 821), 0, 2, -4.98),
]


@pytest.mark.parametrize("model, counts, elo0, elo1, figure", FASTCHESS_FIGURES)
def test_sprt_is_fastchesss(model, counts, elo0, elo1, figure):
    if len(counts) == 3:
        wins, draws, losses = counts
        test = sprt(elo0=elo0, elo1=elo1, model=model, wins=wins, draws=draws, losses=losses)
    else:
        test = sprt(elo0=elo0, elo1=elo1, model=model, pentanomial=counts)
    assert test.llr == pytest.approx(figure, rel=0.01)


def test_sprt_bounds_and_fields():
    test = sprt(elo0=0, elo1=5, alpha=0.05, beta=0.1, wins=10, draws=10, losses=10)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert (test.elo0, test.elo1, test.alpha, test.beta, test.model) == (0.0, 5.0, 0.05, 0.1,
                                                                       "normalized")
    assert test.result is None
    with pytest.raises(AttributeError):
        test.llr = 3.0  # type: ignore[misc]


def test_sprt_no_games_is_zero():
    for model in ("normalized", "logistic", "bayesian"):
        test = sprt(elo0=0, elo1=5, model=model, wins=0, draws=0, losses=0)
        assert (test.llr, test.result) == (0.0, None)
    assert sprt(elo0=0, elo1=5, pentanomial=(0, 0, 0, 0, 0)).llr == 0.0


@pytest.mark.parametrize("model", ["normalized", "logistic", "bayesian"])
def test_sprt_symmetric_counts_give_a_symmetric_llr(model):
    """Mirrored counts and mirrored hypotheses: the same LLR; hypotheses symmetric about
    0 and even counts: 0."""
    a = sprt(elo0=-1, elo1=4, model=model, wins=120, draws=300, losses=95).llr
    b = sprt(elo0=-4, elo1=1, model=model, wins=95, draws=300, losses=120).llr
    assert a == pytest.approx(-b, abs=1e-9)
    assert sprt(elo0=-3, elo1=3, model=model, wins=50, draws=80, losses=50).llr == pytest.approx(
        0.0, abs=1e-9)
    if model != "bayesian":
        c = sprt(elo0=-1, elo1=4, model=model, pentanomial=(5, 30, 80, 25, 9)).llr
        d = sprt(elo0=-4, elo1=1, model=model, pentanomial=(9, 25, 80, 30, 5)).llr
        assert c == pytest.approx(-d, abs=1e-9)


@pytest.mark.parametrize("model", ["normalized", "logistic", "bayesian"])
def test_sprt_llr_grows_with_wins_and_result_follows_the_bounds(model):
    previous = -math.inf
    for wins in range(0, 400, 20):
        test = sprt(elo0=0, elo1=10, model=model, wins=wins, draws=200, losses=100)
        assert test.llr > previous
        previous = test.llr
        expected = ("H0" if test.llr <= test.lower else "H1" if test.llr >= test.upper
                    else None)
        assert test.result == expected
    assert sprt(elo0=0, elo1=10, model=model, wins=0, draws=200, losses=100).result == "H0"
    assert sprt(elo0=0, elo1=10, model=model, wins=380, draws=200, losses=100).result == "H1"


@pytest.mark.parametrize("model", ["normalized", "logistic", "bayesian"])
def test_sprt_llr_sign_follows_the_score_against_the_hypotheses_midpoint(model):
    # hypotheses symmetric about 0: a score above ½ favours H1, below it H0
    assert sprt(elo0=-5, elo1=5, model=model, wins=600, draws=300, losses=500).llr > 0
    assert sprt(elo0=-5, elo1=5, model=model, wins=500, draws=300, losses=600).llr < 0


def _t_value(probs, values):
    mean = sum(p * a for p, a in zip(probs, values))
    return (mean - 0.5) / math.sqrt(sum(p * (a - mean) ** 2 for p, a in zip(probs, values)))


def test_normalized_mle_far_from_uniform_is_the_constrained_maximum():
    """Beyond |t| ≈ 1 the fixed point cannot start from the uniform distribution (fishtest's
    start, where fishtest fails); the one reached in steps from the empirical distribution
    has the t-value asked for and a likelihood no trinomial of that t-value beats (a grid
    over the draw probability, the win probability solved by bisection)."""
    counts = (10, 20, 30)                         # losses, draws, wins
    freqs = [c / 60 for c in counts]
    values = (0.0, 0.5, 1.0)
    t = 1.3
    mle = stats._mle_t_value(values, freqs, t)
    assert mle is not None
    assert _t_value(mle, values) == pytest.approx(t, abs=1e-9)
    assert stats._t_value_fixed_point(values, freqs, t, [1 / 3] * 3) is None

    def log_likelihood(probs):
        return sum(f * math.log(p) for f, p in zip(freqs, probs))

    best = -math.inf
    for step in range(1, 400):
        draw = step / 400
        low, high = 0.0, 1.0 - draw               # the win probability: t grows with it
        for _ in range(60):
            win = (low + high) / 2
            if _t_value((1 - draw - win, draw, win), values) < t:
                low = win
            else:
                high = win
        loss = 1 - draw - win
        if loss > 0 and abs(_t_value((loss, draw, win), values) - t) < 1e-9:
            best = max(best, log_likelihood((loss, draw, win)))
    assert log_likelihood(mle) >= best - 1e-12
    assert log_likelihood(mle) == pytest.approx(best, abs=1e-4)


def test_normalized_llr_of_classes_weighing_1e_10():
    """Millions of draws and nothing else, bounds of hundreds of normalized Elo: the
    maximum-likelihood distributions fill classes weighing 1e-10 (the empty ones' 0.001
    over the games) and keep their t-values; the LLR is monotone in the upper bound."""
    draws = 4613480
    freqs = [x / (draws + 2e-3) for x in (1e-3, draws, 1e-3)]
    for elo1 in (16.45, 291.2232563208457, 600, 936.45):
        t = elo1 / stats._NELO_PER_T
        mle = stats._mle_t_value((0.0, 0.5, 1.0), freqs, t)
        assert mle is not None and _t_value(mle, (0.0, 0.5, 1.0)) == pytest.approx(t, abs=1e-7)
    llrs = [sprt(elo0=0, elo1=e, wins=0, draws=draws, losses=0).llr for e in (100, 300, 900)]
    assert llrs[0] > llrs[1] > llrs[2] and all(math.isfinite(x) for x in llrs)


@pytest.mark.parametrize("counts, elo0, elo1, figure", [
    ((36433, 68692, 36027), 0, 2, 0.9232910576883124),
    ((365, 16618, 36229, 16974, 390), 0, 2, 2.25039529154863),
])
def test_normalized_llr_closed_form_is_fishtests(monkeypatch, counts, elo0, elo1, figure):
    """Where floating point cannot hold a maximum-likelihood distribution the LLR is Van
    den Bergh's closed form, fishtest's LLRcalc.LLR_normalized_alt (the figures)."""
    monkeypatch.setattr(stats, "_mle_t_value", lambda values, freqs, t: None)
    if len(counts) == 3:
        wins, draws, losses = counts
        test = sprt(elo0=elo0, elo1=elo1, wins=wins, draws=draws, losses=losses)
    else:
        test = sprt(elo0=elo0, elo1=elo1, pentanomial=counts)
    assert test.llr == pytest.approx(figure, abs=1e-9)


@pytest.mark.parametrize("model", ["normalized", "logistic", "bayesian"])
def test_sprt_is_finite_over_the_whole_range_of_bounds(model):
    """Bounds at ±MAX_SPRT_ELO and lopsided counts (early in a match, or millions of
    draws): a finite LLR, and a verdict that follows it."""
    edge = stats.MAX_SPRT_ELO
    for elo0, elo1 in ((-edge, edge), (edge - 1, edge), (-edge, 1 - edge), (0, 2)):
        for wins, draws, losses in ((5, 0, 0), (0, 0, 5), (0, 3, 0), (1, 1_000_000, 0),
                                    (40_000, 2, 1)):
            test = sprt(elo0=elo0, elo1=elo1, model=model, wins=wins, draws=draws,
                        losses=losses)
            assert math.isfinite(test.llr), (elo0, elo1, wins, draws, losses)
        if model != "bayesian":
            for pairs in ((0, 0, 0, 0, 7), (3, 0, 0, 0, 0), (0, 1, 900_000, 0, 2)):
                assert math.isfinite(sprt(elo0=elo0, elo1=elo1, model=model,
                                          pentanomial=pairs).llr)


# ---------------------------------------------------------------- bad input

GOOD = {"wins": 1, "draws": 2, "losses": 3}


@pytest.mark.parametrize("function", [elo, los])
@pytest.mark.parametrize("name, value, error", [
    ("wins", -1, katra.ArgumentError), ("draws", 1.0, katra.ArgumentTypeError),
    ("losses", True, katra.ArgumentTypeError), ("wins", "3", katra.ArgumentTypeError),
])
def test_bad_counts(function, name, value, error):
    with pytest.raises(error, match=name):
        function(**{**GOOD, name: value})


@pytest.mark.parametrize("pentanomial, error, match", [
    ((1, 2, 3, 4), katra.ArgumentError, "5 counts"),
    ((1, 2, 3, 4, 5, 6), katra.ArgumentError, "5 counts"),
    ((1, 2, -3, 4, 5), katra.ArgumentError, r"pentanomial\[2\]"),
    ((1, 2, 3, 4, False), katra.ArgumentTypeError, r"pentanomial\[4\]"),
    ((1, 2.0, 3, 4, 5), katra.ArgumentTypeError, r"pentanomial\[1\]"),
    ("12345", katra.ArgumentTypeError, "pentanomial"),
    (12345, katra.ArgumentTypeError, "pentanomial"),
])
def test_bad_pentanomial(pentanomial, error, match):
    with pytest.raises(error, match=match):
        elo_pentanomial(pentanomial)
    with pytest.raises(error, match=match):
        sprt(elo0=0, elo1=5, pentanomial=pentanomial)


@pytest.mark.parametrize("arguments, error, match", [
    ({"elo0": 5, "elo1": 5}, katra.ArgumentError, "elo0 must be less than elo1"),
    ({"elo0": 6, "elo1": 5}, katra.ArgumentError, "elo0 must be less than elo1"),
    ({"elo0": math.nan}, katra.ArgumentError, "elo0"),
    ({"elo0": -stats.MAX_SPRT_ELO - 0.5}, katra.ArgumentError, "elo0 must be within"),
    ({"elo1": 1001}, katra.ArgumentError, "elo1 must be within"),
    ({"elo1": "5"}, katra.ArgumentTypeError, "elo1"),
    ({"alpha": 0}, katra.ArgumentError, "alpha"),
    ({"alpha": 1.0}, katra.ArgumentError, "alpha"),
    ({"beta": -0.1}, katra.ArgumentError, "beta"),
    ({"beta": True}, katra.ArgumentTypeError, "beta"),
    ({"alpha": 0.6, "beta": 0.5}, katra.ArgumentError, "alpha \\+ beta"),
    ({"model": "BayesElo"}, katra.ArgumentError, "model"),
    ({"model": None}, katra.ArgumentTypeError, "model"),
    ({"pentanomial": (1, 1, 1, 1, 1)}, katra.ArgumentError, "not both"),
    ({"wins": None}, katra.ArgumentError, "wins missing"),
    ({"wins": None, "draws": None, "losses": None}, katra.ArgumentError, "give the counts"),
    ({"wins": None, "draws": None, "losses": None, "pentanomial": (1, 1, 1, 1, 1),
      "model": "bayesian"}, katra.ArgumentError, "bayesian"),
    ({"losses": -2}, katra.ArgumentError, "losses"),
])
def test_bad_sprt_arguments(arguments, error, match):
    with pytest.raises(error, match=match):
        sprt(**{"elo0": 0, "elo1": 5, **GOOD, **arguments})


def test_errors_are_katras():
    assert issubclass(katra.ArgumentTypeError, katra.ArgumentError)
    with pytest.raises(ValueError):
        elo(wins=-1, draws=0, losses=0)


# ---------------------------------------------------------------- ladder

def test_ladder_two_players_hand_worked():
    """a scores 2 of 3 against b: a's rating is where 1/(1 + 10^(-R/400)) = 2/3, R =
    400·log10(2); the information is 3·p(1-p)·(ln 10/400)² with p = 2/3."""
    ratings = ladder([("a", "b", 1), ("b", "a", 1), ("a", "b", 1.0)], anchor="b",
                     anchor_elo=1500)
    assert list(ratings) == ["a", "b"]
    rating, half = ratings["a"]
    assert rating == pytest.approx(1500 + 400 * math.log10(2), abs=1e-6)
    information = 3 * (2 / 9) * (math.log(10) / 400) ** 2
    assert half == pytest.approx(1.959963984540054 / math.sqrt(information), rel=1e-6)
    assert ratings["b"] == (1500.0, 0.0)


def test_ladder_draws_are_half_points():
    draws = ladder([("a", "b", 0.5)] * 4 + [("a", "b", 1), ("a", "b", 0)], anchor="a")
    assert draws["b"][0] == pytest.approx(0.0, abs=1e-6)
    # c takes 6 of 10 points, draws counting half
    half_points = ladder([("c", "d", 1), ("c", "d", 0.5), ("d", "c", 0.5), ("c", "d", 0)]
                         * 2 + [("c", "d", 1)] * 2, anchor="d")
    assert half_points["c"][0] == pytest.approx(400 * math.log10(6 / 4), abs=1e-6)


def test_ladder_chain_is_the_sum_of_its_links():
    """a-b and b-c only: the MLE gives each pair its own score, so a-c is the sum."""
    games = ([("a", "b", 1)] * 3 + [("a", "b", 0)]       # a takes ¾ from b
             + [("b", "c", 1)] * 1 + [("b", "c", 0)] * 3)  # b takes ¼ from c
    ratings = ladder(games, anchor="b", anchor_elo=100)
    assert ratings["a"][0] == pytest.approx(100 + 400 * math.log10(3), abs=1e-6)
    assert ratings["c"][0] == pytest.approx(100 + 400 * math.log10(3), abs=1e-6)
    assert list(ratings)[-1] == "b"


def test_ladder_round_robin_properties():
    """A round robin where each stronger player takes 3 of 4 from each weaker one:
    strictly ordered, symmetric about the middle player, a larger interval for the
    player farther from the anchor, and the gradient zero (the MLE)."""
    players = ["p0", "p1", "p2", "p3", "p4"]
    games = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            games += [(a, b, 1), (b, a, 0), (a, b, 1), (a, b, 0)]
    ratings = ladder(games, anchor="p2")
    assert list(ratings) == players
    r = {p: v[0] for p, v in ratings.items()}
    assert r["p0"] == pytest.approx(-r["p4"], abs=1e-6)
    assert r["p1"] == pytest.approx(-r["p3"], abs=1e-6)
    assert ratings["p0"][1] > ratings["p1"][1] > 0
    for p in players:   # each player's expected score equals its score
        expected = actual = 0.0
        for a, b, s in games:
            if p in (a, b):
                e = 1 / (1 + 10 ** (-(r[a] - r[b]) / 400))
                expected += e if p == a else 1 - e
                actual += s if p == a else 1 - s
        assert expected == pytest.approx(actual, abs=1e-6)


def _random_games(players, count, seed):
    """Games between players of ratings 0, 60, 120, ... scored by the logistic model, a
    third of each expected score drawn."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        a, b = rng.sample(range(len(players)), 2)
        expected = 1 / (1 + 10 ** (-(60 * a - 60 * b) / 400))
        roll = rng.random()
        score = 1 if roll < expected * 2 / 3 else 0.5 if roll < expected * 2 / 3 + 1 / 3 else 0
        games.append((players[a], players[b], score))
    return games


def test_ladder_is_the_mm_algorithms_maximum():
    """Hunter's MM iteration for Bradley-Terry (a player's strength is its points over the
    sum, over its games, of 1/(its strength + the opponent's)), run to convergence,
    gives the same ratings."""
    players = ["a", "b", "c", "d", "e"]
    games = _random_games(players, 300, seed=7)
    ratings = ladder(games, anchor="c", anchor_elo=50)
    strength = dict.fromkeys(players, 1.0)
    points = dict.fromkeys(players, 0.0)
    met = {(p, q): 0 for p in players for q in players}   # games between p and q
    for a, b, score in games:
        points[a] += score
        points[b] += 1 - score
        met[a, b] += 1
        met[b, a] += 1
    for _ in range(3000):
        for p in players:
            strength[p] = points[p] / sum(met[p, q] / (strength[p] + strength[q])
                                          for q in players if q != p)
    for p in players:
        mm = 50 + 400 * math.log10(strength[p] / strength["c"])
        assert ratings[p][0] == pytest.approx(mm, abs=1e-6), p


def test_ladder_half_widths_are_the_numerical_informations():
    """The half-widths from a finite-difference Hessian of the log-likelihood (the
    anchor fixed), inverted by Gaussian elimination."""
    players = ["a", "b", "c", "d"]
    games = _random_games(players, 200, seed=11)
    ratings = ladder(games, anchor="a")
    free = ["b", "c", "d"]

    def log_likelihood(r):
        total = 0.0
        for a, b, score in games:
            p = 1 / (1 + 10 ** (-(r[a] - r[b]) / 400))
            total += score * math.log(p) + (1 - score) * math.log(1 - p)
        return total

    h = 1.0  # Elo
    at = {p: ratings[p][0] for p in players}

    def shifted(i, di, j, dj):
        r = dict(at)
        r[i] += di
        r[j] += dj
        return log_likelihood(r)

    hessian = [[(shifted(i, h, j, h) - shifted(i, h, j, -h) - shifted(i, -h, j, h)
                 + shifted(i, -h, j, -h)) / (4 * h * h) for j in free] for i in free]
    n = len(free)
    inverse = [[float(i == j) for j in range(n)] for i in range(n)]
    m = [[-x for x in row] for row in hessian]   # the information
    for col in range(n):
        for row in range(n):
            if row != col:
                f = m[row][col] / m[col][col]
                m[row] = [x - f * y for x, y in zip(m[row], m[col])]
                inverse[row] = [x - f * y for x, y in zip(inverse[row], inverse[col])]
    for k, p in enumerate(free):
        variance = inverse[k][k] / m[k][k]
        assert ratings[p][1] == pytest.approx(1.959963984540054 * math.sqrt(variance),
                                              rel=1e-4), p


@pytest.mark.parametrize("games, named", [
    ([("a", "b", 1), ("a", "b", 1), ("b", "c", 1), ("c", "b", 1)], "'a'"),  # a won all
    ([("a", "b", 0), ("b", "c", 1), ("c", "b", 1)], "'a'"),                 # a lost all
    ([("a", "b", 1), ("b", "a", 1), ("c", "d", 0.5)], "'c', 'd'"),          # not linked
    ([("b", "a", 0), ("b", "c", 0), ("c", "b", 1), ("c", "a", 0.5)], "'b'"),
])
def test_ladder_unbounded_ratings_are_refused_naming_the_players(games, named):
    with pytest.raises(katra.ArgumentError, match=f"ratings of {named} are unbounded"):
        ladder(games, anchor="b" if named != "'b'" else "a")


def test_ladder_anchor_winning_everything_names_the_others():
    with pytest.raises(katra.ArgumentError, match="ratings of 'b', 'c' are unbounded"):
        ladder([("a", "b", 1), ("a", "c", 1), ("b", "c", 1), ("c", "b", 0.5)], anchor="a")


@pytest.mark.parametrize("games, anchor, error, match", [
    ([("a", "b", 1)], "z", katra.ArgumentError, "anchor 'z' played no game"),
    ([("a", "b", 1)], 3, katra.ArgumentTypeError, "anchor"),
    ([("a", "b", 0.25)], "a", katra.ArgumentError, r"games\[0\]: score_of_a"),
    ([("a", "b", 1), ("a", "b", True)], "a", katra.ArgumentTypeError, r"games\[1\]: score"),
    ([("a", "b", "1")], "a", katra.ArgumentTypeError, "score_of_a"),
    ([("a", "a", 1)], "a", katra.ArgumentError, "cannot play itself"),
    ([("a", 2, 1)], "a", katra.ArgumentTypeError, "player_b"),
    ([("a", "b")], "a", katra.ArgumentError, "3 items"),
    (["ab1"], "a", katra.ArgumentTypeError, r"games\[0\]"),
    (5, "a", katra.ArgumentTypeError, "games"),
    ([], "a", katra.ArgumentError, "anchor 'a' played no game"),
])
def test_ladder_bad_input(games, anchor, error, match):
    with pytest.raises(error, match=match):
        ladder(games, anchor=anchor)


def test_ladder_prior_adds_virtual_draws_to_every_pairing_that_met():
    """With one virtual draw a pairing, a 10-0 sweep is rated as 10.5-0.5 would be
    without it (400·log10(21)), and a pairing that never met gets none: a and c are
    rated through b alone."""
    swept = ladder([("a", "b", 1)] * 10, anchor="b", prior=1)
    assert swept["a"][0] == pytest.approx(400 * math.log10(21), abs=1e-6)
    plain = ladder([("a", "b", 1)] * 10 + [("a", "b", 0.5)], anchor="b")
    assert swept["a"][0] == pytest.approx(plain["a"][0], abs=1e-6)
    assert swept["a"][1] == pytest.approx(plain["a"][1], rel=1e-6)
    chain = ladder([("a", "b", 1)] * 3 + [("b", "c", 1)] * 3, anchor="c", prior=2)
    # a-b and b-c each read 4-1 (3 wins and 2 virtual draws): 400·log10(4) per link
    assert chain["b"][0] == pytest.approx(400 * math.log10(4), abs=1e-6)
    assert chain["a"][0] == pytest.approx(800 * math.log10(4), abs=1e-6)
    with pytest.raises(katra.ArgumentError, match="unbounded"):  # b never met a or c's group
        ladder([("a", "c", 1), ("b", "d", 1)], anchor="c", prior=1)


@pytest.mark.parametrize("prior, error", [(-1, katra.ArgumentError), (1001, katra.ArgumentError),
                                          (math.nan, katra.ArgumentError),
                                          ("1", katra.ArgumentTypeError),
                                          (True, katra.ArgumentTypeError)])
def test_ladder_bad_prior(prior, error):
    with pytest.raises(error, match="prior"):
        ladder([("a", "b", 1), ("b", "a", 1)], anchor="a", prior=prior)


def test_ladder_bad_anchor_elo():
    with pytest.raises(katra.ArgumentError, match="anchor_elo"):
        ladder([("a", "b", 1), ("b", "a", 1)], anchor="a", anchor_elo=math.inf)


def test_docstring_examples_run():
    result = doctest.testmod(stats, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 11 and result.failed == 0


def test_module_surface():
    assert stats.__all__ == ["elo", "elo_pentanomial", "los", "sprt", "SPRT", "SPRTModel",
                             "MAX_SPRT_ELO", "ladder", "MAX_LADDER_PRIOR"]
    assert not any(hasattr(katra, name) for name in ("sprt", "ladder", "los"))
