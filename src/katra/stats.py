"""Match statistics: Elo estimates, likelihood of superiority, the SPRT and a rating ladder.

The formulas are those of the chess testing frameworks (cutechess-cli, fastchess,
fishtest), so that the same counts give the same figures (docs/stats.md):

* [elo][katra.stats.elo] and [elo_pentanomial][katra.stats.elo_pentanomial]: the Elo
  difference and the half-width of its 95% interval from a match's score and the score's variance;
* [los][katra.stats.los]: the likelihood of superiority;
* [sprt][katra.stats.sprt]: the log-likelihood ratio of a sequential probability ratio test and
  its verdict, under the normalized, logistic or BayesElo model;
* [ladder][katra.stats.ladder]: maximum-likelihood ratings of several players (Bradley-Terry).

Counts are those of the first player (the one under test): ``wins`` are its wins.
A pentanomial is the five counts ``(p0, p1, p2, p3, p4)`` of game pairs (the two
games of one opening, each side playing first once) in which it scored 0, ½, 1,
1½ and 2 points.  Pure Python, standard library only.  Bad arguments raise
[katra.ArgumentTypeError][] or [katra.ArgumentError][], naming the
argument, before any work.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

from ._errors import ArgumentError, ArgumentTypeError

__all__ = ["elo", "elo_pentanomial", "los", "sprt", "SPRT", "SPRTModel", "MAX_SPRT_ELO",
           "ladder", "MAX_LADDER_PRIOR"]

SPRTModel = Literal["normalized", "logistic", "bayesian"]
"""The models [sprt][katra.stats.sprt] knows: what its bounds measure and which
likelihood it uses."""
_MODELS: tuple[str, ...] = ("normalized", "logistic", "bayesian")

#: The standard normal quantile of 0.975: a 95% interval is the mean ± 1.96 standard errors.
_Z95 = NormalDist().inv_cdf(0.975)

#: Normalized Elo per unit of t-value (mean score minus ½, over the per-game standard
#: deviation): 800 / ln 10.
_NELO_PER_T = 800 / math.log(10)

#: Each empty class of a count is given this weight when a likelihood is estimated
#: (fishtest's and fastchess's regularization), so no probability is zero.
_EMPTY_CLASS_WEIGHT = 1e-3

MAX_LADDER_PRIOR = 1000.0
"""The most virtual draws [ladder][katra.stats.ladder] adds to each pairing."""

MAX_SPRT_ELO = 1000.0
"""The largest ``|elo0|`` and ``|elo1|`` that [sprt][katra.stats.sprt] takes (any model).
Bounds are a few Elo in practice; within this every hypothesis's score stays well inside (0, 1)
in floating point."""

#: ladder: Newton's iteration stops when no rating moves by more than this (Elo).
_LADDER_TOLERANCE = 1e-9


# ---------------------------------------------------------------- argument checks

def _count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ArgumentError(f"{name} must be 0 or more, not {value}")
    return value


def _trinomial(wins: object, draws: object, losses: object) -> tuple[int, int, int]:
    """(losses, draws, wins), checked: the counts in order of the first player's score."""
    return _count(losses, "losses"), _count(draws, "draws"), _count(wins, "wins")


def _pentanomial(pentanomial: object, name: str = "pentanomial") -> tuple[int, ...]:
    if isinstance(pentanomial, (str, bytes)) or not isinstance(pentanomial, Sequence):
        raise ArgumentTypeError(f"{name} must be a sequence of 5 ints (p0, p1, p2, p3, p4), "
                                f"not {type(pentanomial).__name__}")
    if len(pentanomial) != 5:
        raise ArgumentError(f"{name} must hold 5 counts (p0, p1, p2, p3, p4), "
                            f"not {len(pentanomial)}")
    return tuple(_count(c, f"{name}[{i}]") for i, c in enumerate(pentanomial))


def _real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentTypeError(f"{name} must be a number, not {type(value).__name__}")
    if not math.isfinite(value):
        raise ArgumentError(f"{name} must be finite, not {value}")
    return float(value)


# ---------------------------------------------------------------- Elo and LOS

def _score_to_elo(score: float) -> float:
    """Logistic Elo of a mean score: -400·log10(1/s - 1); ±inf at and beyond 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 0.0 - 400.0 * math.log10(1.0 / score - 1.0)  # (0.0 - : no -0.0 at s = ½)


def _elo_of_counts(counts: Sequence[int]) -> tuple[float, float]:
    """Elo and 95% half-width for counts of the scores 0, 1/k, ..., 1 (k = len - 1)."""
    n = sum(counts)
    if n == 0:
        return math.nan, math.nan
    k = len(counts) - 1
    mean = sum(c * i / k for i, c in enumerate(counts)) / n
    variance = sum(c * (i / k - mean) ** 2 for i, c in enumerate(counts)) / n
    stderr = math.sqrt(variance / n)
    low, high = mean - _Z95 * stderr, mean + _Z95 * stderr
    if low <= 0.0 or high >= 1.0:
        return _score_to_elo(mean), math.inf
    return _score_to_elo(mean), (_score_to_elo(high) - _score_to_elo(low)) / 2


def elo(*, wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The Elo difference of a match and the half-width of its 95% interval.

    As cutechess-cli and fastchess compute them: the score per game
    ``s = (wins + draws/2) / N``, its per-game variance ``v`` (of the outcomes
    1, ½, 0 about ``s``), the interval ``s ± 1.96·sqrt(v/N)`` mapped through
    ``elo(s) = -400·log10(1/s - 1)``; the half-width is half the mapped interval's
    width.

    At the edges: no games gives ``(nan, nan)``; all wins ``(inf, inf)``, all losses
    ``(-inf, inf)``; and whenever the interval reaches a score of 0 or 1 the
    half-width is ``inf`` (the interval has no finite Elo end).

    >>> elo(wins=1, draws=0, losses=1)[0]
    0.0
    >>> diff, half_width = elo(wins=136, draws=111, losses=96)
    >>> round(diff, 2), round(half_width, 2)
    (40.7, 30.43)
    """
    return _elo_of_counts(_trinomial(wins, draws, losses))


def elo_pentanomial(pentanomial: Sequence[int]) -> tuple[float, float]:
    """[elo][katra.stats.elo] from the counts of game pairs scoring 0, ½, 1, 1½ and 2 points.

    The score per game is the same as from the games' results, but its variance is
    that of the pairs' scores (fastchess, fishtest): the two games of a pair share an
    opening, so they are not independent and the interval is that of the pairs,
    ``s ± 1.96·sqrt(v_pair/pairs)`` with pair scores 0, ¼, ½, ¾, 1 per game.  The
    edges are as in [elo][katra.stats.elo].

    >>> diff, half_width = elo_pentanomial((34, 54, 63, 64, 75))
    >>> round(diff, 2), round(half_width, 2)
    (55.58, 27.65)
    """
    return _elo_of_counts(_pentanomial(pentanomial))


def los(*, wins: int, draws: int, losses: int) -> float:
    """Likelihood of superiority: the probability, 0 to 1, that the first player is the
    stronger, from the decisive games (cutechess-cli's formula)
    ``½·(1 + erf((wins - losses) / sqrt(2·(wins + losses))))``.

    Draws do not count; with no decisive game it is ½.

    >>> los(wins=10, draws=5, losses=10)
    0.5
    >>> round(los(wins=136, draws=111, losses=96), 4)
    0.9957
    """
    lost, _, won = _trinomial(wins, draws, losses)
    if won + lost == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((won - lost) / math.sqrt(2.0 * (won + lost))))


# ---------------------------------------------------------------- the SPRT

@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test's state after some games ([sprt][katra.stats.sprt]).

    ``llr`` is the log-likelihood ratio of H1 (``elo == elo1``) against H0
    (``elo == elo0``); the test accepts H0 once ``llr <= lower`` and H1 once
    ``llr >= upper`` (``result``), and goes on while ``result`` is None.
    """

    #: the log-likelihood ratio of H1 against H0
    llr: float
    #: ``log(beta / (1 - alpha))``: at or below it, H0 is accepted
    lower: float
    #: ``log((1 - beta) / alpha)``: at or above it, H1 is accepted
    upper: float
    #: "H0", "H1" or None (go on playing)
    result: Literal["H0", "H1"] | None
    #: the hypotheses' Elo, in the model's unit
    elo0: float
    elo1: float
    #: the test's error rates: of accepting H1 at elo0, and H0 at elo1
    alpha: float
    beta: float
    #: "normalized", "logistic" or "bayesian"
    model: SPRTModel


def _regularized(counts: Sequence[int]) -> list[float]:
    return [float(c) if c else _EMPTY_CLASS_WEIGHT for c in counts]


def _secular_denominators(weights: Sequence[float], phi: Sequence[float]) -> list[float]:
    """The denominators d_i = 1 + x·phi_i at the root x of sum_i w_i·phi_i / d_i = 0 with
    every d_i > 0 (phi must have both signs).

    The function falls strictly from +inf to -inf between the poles -1/max(phi) and
    -1/min(phi).  The root is sought as its offset from the nearer pole, so that the
    denominator vanishing there (the class of a tiny weight that the answer must fill)
    keeps its relative precision: d_i = (phi_k - phi_i)/phi_k + offset·phi_i, k the
    pole's class.  Newton's method inside a shrinking bracket (bisection when a step
    would leave it)."""
    top, bottom = max(phi), min(phi)
    width = 1.0 / top - 1.0 / bottom          # between the poles
    middle = [1.0 + (-1.0 / top + width / 2) * f for f in phi]
    if sum(w * f / d for w, f, d in zip(weights, phi, middle)) > 0.0:
        pole, low, high = bottom, -width / 2, 0.0  # the root is past the middle
    else:
        pole, low, high = top, 0.0, width / 2
    base = [(pole - f) / pole for f in phi]       # d_i at the pole, 0 for its own class
    offset = (low + high) / 2
    for _ in range(200):
        value = slope = 0.0
        for w, f, b in zip(weights, phi, base):
            q = f / (b + offset * f)
            value += w * q
            slope -= w * q * q
        if value > 0.0:
            low = offset
        elif value < 0.0:
            high = offset
        else:
            break
        newton = offset - value / slope
        if abs(newton - offset) <= 1e-15 * abs(offset):
            offset = newton
            break
        offset = newton if low < newton < high else (low + high) / 2
        if high - low <= 1e-15 * abs(offset):
            break
    return [b + offset * f for f, b in zip(phi, base)]


def _mean_var(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * a for a, p in zip(values, probs))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(values, probs))


def _mle_mean(values: Sequence[float], freqs: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``values`` of the given mean nearest (in likelihood) to the
    empirical frequencies: p_i = f_i / (1 + x·(a_i - mean)), x the secular root."""
    phi = [a - mean for a in values]
    return [f / d for f, d in zip(freqs, _secular_denominators(freqs, phi))]


def _mle_t_value(values: Sequence[float], freqs: Sequence[float],
                 t: float) -> list[float] | None:
    """The distribution on ``values`` of t-value (mean - ½)/sd = t with the largest
    likelihood for the empirical frequencies.

    It is a fixed point of the mean case with the constraint linearized about the
    current estimate, sought from the uniform distribution; when that start is too far
    (beyond |t| ≈ 1 its linearized constraint has no root), from the empirical
    distribution (its own t-value's answer) in steps of t, each started from the last
    answer and halved when its iteration has no root or does not settle.  None when
    floating point cannot hold it (an almost empty class that the answer must fill)."""
    uniform = [1.0 / len(values)] * len(values)
    direct = _t_value_fixed_point(values, freqs, t, uniform)
    if direct is not None:
        return direct
    probs = list(freqs)
    mean, var = _mean_var(values, probs)
    reached = (mean - 0.5) / math.sqrt(var)
    step = t - reached
    while reached != t:
        target = t if abs(step) >= abs(t - reached) else reached + step
        found = _t_value_fixed_point(values, freqs, target, probs)
        if found is None:
            step /= 2
            if abs(step) < 1e-9:
                return None
            continue
        probs, reached = found, target
        step *= 2
    return probs


def _t_value_fixed_point(values: Sequence[float], freqs: Sequence[float], t: float,
                         start: list[float]) -> list[float] | None:
    """The fixed point from ``start``, or None if the iteration has no root or does not
    settle.  Settled: no probability moves by 1e-12, or the steps stopped shrinking (a
    cycle at the rounding level, up to about 1e-8 when the root is near a pole of the
    secular equation: an almost empty class) below 1e-6 with the t-value met to 1e-7."""
    probs = start
    previous = math.inf
    for _ in range(100):
        mean, var = _mean_var(values, probs)
        sd = math.sqrt(var)
        phi = [a - 0.5 - t * sd * (1.0 + ((mean - a) / sd) ** 2) / 2 for a in values]
        if max(phi) <= 0.0 or min(phi) >= 0.0:
            return None
        new = [f / d for f, d in zip(freqs, _secular_denominators(freqs, phi))]
        if min(new) <= 0.0:
            return None
        change = max(abs(n - p) for n, p in zip(new, probs))
        probs = new
        if change < 1e-12:
            return probs
        if change >= previous and change < 1e-6:
            mean, var = _mean_var(values, probs)
            if abs((mean - 0.5) / math.sqrt(var) - t) < 1e-7:
                return probs
        previous = change
    return None


def _gsprt_llr(counts: Sequence[int], model: str, elo0: float, elo1: float) -> float:
    """The generalized LLR (Van den Bergh): N·sum_i f_i·log(p1_i / p0_i), each p the
    maximum-likelihood distribution under its hypothesis."""
    weights = _regularized(counts)
    total = sum(weights)
    freqs = [w / total for w in weights]
    k = len(counts) - 1
    values = [i / k for i in range(k + 1)]
    if model == "normalized":
        # a pair's score per game has half a game's variance: its t is sqrt(2) times larger
        scale = math.sqrt(2.0) if len(counts) == 5 else 1.0
        mle0, mle1 = (_mle_t_value(values, freqs, e / _NELO_PER_T * scale) for e in (elo0, elo1))
        if mle0 is None or mle1 is None:
            return _normalized_llr_approximation(total, values, freqs, scale, elo0, elo1)
        p0, p1 = mle0, mle1
    else:
        p0, p1 = (_mle_mean(values, freqs, _logistic_score(e)) for e in (elo0, elo1))
    return total * sum(f * (math.log(b) - math.log(a)) for f, a, b in zip(freqs, p0, p1))


def _normalized_llr_approximation(total: float, values: Sequence[float],
                                  freqs: Sequence[float], scale: float, elo0: float,
                                  elo1: float) -> float:
    """Van den Bergh's closed form of the normalized LLR, for when the maximum-likelihood
    distributions are out of floating point's reach: (games/2)·log((1 + (t - t0)²) /
    (1 + (t - t1)²)), t the observed per-game t-value (a pair counting as two games)."""
    mean, var = _mean_var(values, freqs)
    observed = (mean - 0.5) / (math.sqrt(var) * scale)
    t0, t1 = elo0 / _NELO_PER_T, elo1 / _NELO_PER_T
    games = total * scale * scale  # a pair is two games (scale² = 2)
    return games / 2 * math.log((1 + (observed - t0) ** 2) / (1 + (observed - t1) ** 2))


def _logistic_score(elo_difference: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo_difference / 400.0))


def _bayeselo_llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The BayesElo model's LLR: win, draw and loss probabilities of each hypothesis
    from its BayesElo and the draw Elo the counts give."""
    weights = _regularized(counts)
    total = sum(weights)
    loss, win = weights[0] / total, weights[2] / total
    draw_elo = 200.0 * math.log10((1.0 - loss) / loss * (1.0 - win) / win)

    def probabilities(bayes_elo: float) -> tuple[float, float, float]:
        p_win = 1.0 / (1.0 + 10.0 ** ((draw_elo - bayes_elo) / 400.0))
        p_loss = 1.0 / (1.0 + 10.0 ** ((draw_elo + bayes_elo) / 400.0))
        return p_loss, 1.0 - p_win - p_loss, p_win

    p0, p1 = probabilities(elo0), probabilities(elo1)
    return sum(w * (math.log(b) - math.log(a)) for w, a, b in zip(weights, p0, p1))


def sprt(*, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
         model: SPRTModel = "normalized", wins: int | None = None, draws: int | None = None,
         losses: int | None = None, pentanomial: Sequence[int] | None = None) -> SPRT:
    """The sequential probability ratio test of H0 ``elo == elo0`` against H1
    ``elo == elo1`` after the games so far.

    Give the games' counts (``wins``, ``draws``, ``losses``, all three) or the game
    pairs' (``pentanomial=(p0, p1, p2, p3, p4)``), not both.  The models, whose LLR
    is fishtest's (docs/stats.md says where the frameworks differ):

    * ``"normalized"`` (fishtest's default): ``elo0``/``elo1`` in normalized Elo,
      ``800/ln 10`` times the t-value ``(score - ½) / sd`` with ``sd`` the standard
      deviation of one game's score; the generalized SPRT, each hypothesis's
      likelihood that of the maximum-likelihood distribution with its t-value;
    * ``"logistic"``: logistic Elo, the same generalized SPRT with each hypothesis's
      mean score ``1 / (1 + 10**(-elo/400))``;
    * ``"bayesian"``: BayesElo (``elo0``/``elo1`` in BayesElo), the draw Elo estimated
      from the counts, the exact likelihood of the win, draw and loss counts.  It
      models single games: with ``pentanomial`` it raises ArgumentError.

    An empty class of counts weighs 0.001 of a game in the likelihoods (as in
    fishtest and fastchess), so any counts give a finite LLR; no games give 0.
    ``elo0`` and ``elo1`` must lie within ±1000.

    >>> test = sprt(elo0=0, elo1=2, wins=36433, draws=68692, losses=36027)
    >>> round(test.llr, 2), round(test.upper, 2), test.result
    (0.92, 2.94, None)
    """
    elo0_, elo1_ = _real(elo0, "elo0"), _real(elo1, "elo1")
    for name, value in (("elo0", elo0_), ("elo1", elo1_)):
        if abs(value) > MAX_SPRT_ELO:
            raise ArgumentError(f"{name} must be within ±{MAX_SPRT_ELO:g}, not {value}")
    if elo0_ >= elo1_:
        raise ArgumentError(f"elo0 must be less than elo1, not {elo0_} >= {elo1_}")
    alpha_, beta_ = _real(alpha, "alpha"), _real(beta, "beta")
    for name, value in (("alpha", alpha_), ("beta", beta_)):
        if not 0.0 < value < 1.0:
            raise ArgumentError(f"{name} must be between 0 and 1 (exclusive), not {value}")
    if alpha_ + beta_ >= 1.0:
        raise ArgumentError(f"alpha + beta must be less than 1, not {alpha_ + beta_}")
    if not isinstance(model, str):
        raise ArgumentTypeError(f"model must be a str, not {type(model).__name__}")
    if model not in _MODELS:
        raise ArgumentError(f"model must be one of {', '.join(_MODELS)}, not {model!r}")
    trinomial_given = [v is not None for v in (wins, draws, losses)]
    if pentanomial is not None:
        if any(trinomial_given):
            raise ArgumentError("give either wins, draws and losses or pentanomial, not both")
        counts = _pentanomial(pentanomial)
        if model == "bayesian":
            raise ArgumentError("model 'bayesian' takes wins, draws and losses, not "
                                "pentanomial: the BayesElo model has no law for game pairs")
    elif all(trinomial_given):
        counts = _trinomial(wins, draws, losses)
    elif any(trinomial_given):
        missing = [n for n, g in zip(("wins", "draws", "losses"), trinomial_given) if not g]
        raise ArgumentError(f"{' and '.join(missing)} missing: give wins, draws and losses")
    else:
        raise ArgumentError("give the counts: wins, draws and losses, or pentanomial")

    if sum(counts) == 0:
        llr = 0.0
    elif model == "bayesian":
        llr = _bayeselo_llr(counts, elo0_, elo1_)
    else:
        llr = _gsprt_llr(counts, model, elo0_, elo1_)
    lower = math.log(beta_ / (1.0 - alpha_))
    upper = math.log((1.0 - beta_) / alpha_)
    result: Literal["H0", "H1"] | None = (
        "H0" if llr <= lower else "H1" if llr >= upper else None)
    return SPRT(llr=llr, lower=lower, upper=upper, result=result, elo0=elo0_, elo1=elo1_,
                alpha=alpha_, beta=beta_, model=model)


# ---------------------------------------------------------------- the ladder

#: d/dR of log10-odds: a rating difference R gives the expected score 1/(1 + 10**(-R/400)),
#: the logistic function of R·_ELO_SLOPE.
_ELO_SLOPE = math.log(10) / 400


def _games(games: object) -> list[tuple[str, str, float]]:
    if isinstance(games, (str, bytes)) or not isinstance(games, Iterable):
        raise ArgumentTypeError(f"games must be an iterable of (player_a, player_b, score_of_a), "
                                f"not {type(games).__name__}")
    checked = []
    for index, game in enumerate(games):
        where = f"games[{index}]"
        if not isinstance(game, Sequence) or isinstance(game, (str, bytes)):
            raise ArgumentTypeError(f"{where} must be a (player_a, player_b, score_of_a) tuple, "
                                    f"not {type(game).__name__}")
        if len(game) != 3:
            raise ArgumentError(f"{where} must hold 3 items (player_a, player_b, score_of_a), "
                                f"not {len(game)}")
        a, b, score = game
        for name, player in (("player_a", a), ("player_b", b)):
            if not isinstance(player, str):
                raise ArgumentTypeError(f"{where}: {name} must be a str, "
                                        f"not {type(player).__name__}")
        if a == b:
            raise ArgumentError(f"{where}: {a!r} cannot play itself")
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise ArgumentTypeError(f"{where}: score_of_a must be 0, 0.5 or 1, "
                                    f"not {type(score).__name__}")
        if score not in (0, 0.5, 1):
            raise ArgumentError(f"{where}: score_of_a must be 0, 0.5 or 1, not {score}")
        checked.append((a, b, float(score)))
    return checked


def _unbounded_group(players: list[str], games: list[tuple[str, str, float]],
                     anchor: str) -> list[str]:
    """Players whose ratings have no finite maximum-likelihood value, or []: when the
    graph "x scored a point on y" has more than one strongly connected component, a
    component without the anchor that the others never scored on or that never
    scored on them (or played none of them)."""
    scored_against: dict[str, set[str]] = {p: set() for p in players}  # y -> {x scoring on y}
    for a, b, score in games:
        if score > 0:
            scored_against[b].add(a)
        if score < 1:
            scored_against[a].add(b)
    # Tarjan's components over "x scored on y" edges, iteratively
    edges: dict[str, list[str]] = {p: [] for p in players}
    for y, xs in scored_against.items():
        for x in xs:
            edges[x].append(y)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    component: dict[str, int] = {}
    stack: list[str] = []
    components: list[list[str]] = []
    for root in players:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
            if i < len(edges[v]):
                work.append((v, i + 1))
                w = edges[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w not in component:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                members = []
                while True:
                    w = stack.pop()
                    component[w] = len(components)
                    members.append(w)
                    if w == v:
                        break
                components.append(members)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    if len(components) == 1:
        return []
    # the condensation has a source (never scored on) and a sink (never scoring), not
    # the same one: one of them holds no anchor
    for number, members in enumerate(components):
        if anchor in members:
            continue
        never_scored_on = all(component[x] == number for y in members for x in scored_against[y])
        never_scoring = all(component[y] == number for x in members for y in edges[x])
        if never_scored_on or never_scoring:
            return sorted(members)
    raise AssertionError("a condensation has a source and a sink")  # pragma: no cover


def _cholesky(matrix: list[list[float]]) -> list[list[float]]:
    """The lower triangle L with L·Lᵀ = matrix, a symmetric positive definite matrix."""
    n = len(matrix)
    lower = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = matrix[i][j] - sum(lower[i][k] * lower[j][k] for k in range(j))
            lower[i][j] = math.sqrt(s) if i == j else s / lower[j][j]
    return lower


def _cholesky_solve(lower: list[list[float]], rhs: list[float]) -> list[float]:
    """x with L·Lᵀ·x = rhs."""
    n = len(rhs)
    y = [0.0] * n
    for i in range(n):
        y[i] = (rhs[i] - sum(lower[i][k] * y[k] for k in range(i))) / lower[i][i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (y[i] - sum(lower[k][i] * x[k] for k in range(i + 1, n))) / lower[i][i]
    return x


def _inverse_diagonal(lower: list[list[float]]) -> list[float]:
    """The diagonal of (L·Lᵀ)⁻¹ = L⁻ᵀ·L⁻¹: the sums of squares of L⁻¹'s columns."""
    n = len(lower)
    inverse = [[0.0] * n for _ in range(n)]  # L⁻¹, lower triangular, row by row
    for i in range(n):
        inverse[i][i] = 1.0 / lower[i][i]
        for j in range(i):
            inverse[i][j] = -sum(lower[i][k] * inverse[k][j] for k in range(j, i)) / lower[i][i]
    return [sum(inverse[k][i] ** 2 for k in range(i, n)) for i in range(n)]


def ladder(games: Iterable[tuple[str, str, float]], *, anchor: str,
           anchor_elo: float = 0.0, prior: float = 0.0) -> dict[str, tuple[float, float]]:
    """Maximum-likelihood Elo ratings of several players and their 95% half-widths.

    ``games`` are ``(player_a, player_b, score_of_a)`` with the score 0, 0.5 or 1.
    The model is logistic (Bradley-Terry on the Elo scale): ``a`` scores
    ``1 / (1 + 10**(-(R_a - R_b)/400))`` on average, a draw counting as half a win
    and half a loss.  ``anchor``'s rating is fixed at ``anchor_elo``; the others are
    found by Newton's method on the log-likelihood (step-halving, stopped when no
    rating moves by more than 1e-9 Elo).  Each half-width is 1.96 standard errors
    from the observed Fisher information with the anchor fixed (the anchor's is 0).

    ``prior`` (a real number ``>= 0``, default 0): virtual drawn games added to
    every two players who met (BayesElo's prior of draws), so that a player who
    won or lost every point still gets a finite rating: the ratings are then the
    maximum a posteriori of that prior, pulled towards each other by it (with 1,
    a 10-0 score reads as 10.5-0.5).  The half-widths come from the same
    posterior.

    Returns ``{player: (rating, half_width)}``, players sorted by rating, best first.
    A rating whose likelihood has no maximum (a group of players nobody else ever
    scored a point against, or who never scored one, with no prior, or who are not
    linked to the anchor by games) raises ArgumentError naming the players.

    >>> ratings = ladder([("a", "b", 1), ("a", "b", 0), ("a", "b", 1)], anchor="b")
    >>> for player, (rating, half_width) in ratings.items():
    ...     print(player, round(rating, 1), round(half_width))
    a 120.4 417
    b 0.0 0
    """
    checked = _games(games)
    if not isinstance(anchor, str):
        raise ArgumentTypeError(f"anchor must be a str, not {type(anchor).__name__}")
    anchor_elo_ = _real(anchor_elo, "anchor_elo")
    prior_ = _real(prior, "prior")
    if not 0 <= prior_ <= MAX_LADDER_PRIOR:
        raise ArgumentError(f"prior must be between 0 and {MAX_LADDER_PRIOR:g} virtual draws, "
                            f"not {prior_}")
    players = sorted({p for a, b, _ in checked for p in (a, b)})
    if anchor not in players:
        raise ArgumentError(f"anchor {anchor!r} played no game")
    weighted = [(a, b, score, 1.0) for a, b, score in checked]
    if prior_ > 0:
        met = sorted({tuple(sorted((a, b))) for a, b, _ in checked})
        weighted += [(a, b, 0.5, prior_) for a, b in met]
    unbounded = _unbounded_group(players, [(a, b, s) for a, b, s, _ in weighted], anchor)
    if unbounded:
        raise ArgumentError(
            "ladder: the ratings of " + ", ".join(map(repr, unbounded)) + " are unbounded: "
            "they won every point against the other players, lost every point, or played "
            "none of them")

    free = [p for p in players if p != anchor]
    slot = {p: i for i, p in enumerate(free)}
    rating = dict.fromkeys(players, 0.0)
    rating[anchor] = anchor_elo_

    def log_likelihood(r: dict[str, float]) -> float:
        total = 0.0
        for a, b, score, weight in weighted:
            z = (r[a] - r[b]) * _ELO_SLOPE  # log P(a) = -log(1+e^-z), log P(b) = -log(1+e^z)
            total -= weight * (score * _log1p_exp(-z) + (1.0 - score) * _log1p_exp(z))
        return total

    def gradient_and_information() -> tuple[list[float], list[list[float]]]:
        gradient = [0.0] * len(free)
        information = [[0.0] * len(free) for _ in free]
        for a, b, score, weight in weighted:
            p = _logistic_score(rating[a] - rating[b])
            g, h = weight * (score - p) * _ELO_SLOPE, weight * p * (1.0 - p) * _ELO_SLOPE ** 2
            for player, sign in ((a, 1.0), (b, -1.0)):
                if player in slot:
                    gradient[slot[player]] += sign * g
                    information[slot[player]][slot[player]] += h
            if a in slot and b in slot:
                information[slot[a]][slot[b]] -= h
                information[slot[b]][slot[a]] -= h
        return gradient, information

    current = log_likelihood(rating)
    for _ in range(1000):
        gradient, information = gradient_and_information()
        step = _cholesky_solve(_cholesky(information), gradient)
        size = 1.0
        while True:
            trial = dict(rating)
            for p in free:
                trial[p] += size * step[slot[p]]
            value = log_likelihood(trial)
            if value >= current or size < 1e-6:
                break
            size /= 2
        rating, current = trial, value
        if max((abs(size * s) for s in step), default=0.0) <= _LADDER_TOLERANCE:
            break
    _, information = gradient_and_information()
    variances = _inverse_diagonal(_cholesky(information))
    half_width = {anchor: 0.0}
    for p in free:
        half_width[p] = _Z95 * math.sqrt(variances[slot[p]])
    order = sorted(players, key=lambda p: (-rating[p], p))
    return {p: (rating[p], half_width[p]) for p in order}


def _log1p_exp(x: float) -> float:
    """log(1 + e**x) without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))
