"""The statistics of an engine match, as the team's match runner prints them: the score, the Elo
difference with its 95% interval, the likelihood of superiority, and the generalised SPRT on
pentanomial pair scores. `sprt_sum.py` applies them to the sums of several runs.

Design note: the formulas are the usual ones for engine testing. The Elo interval comes from the
normal approximation of the per-game score (wins 1, draws 0.5, losses 0); the SPRT uses the
game pairs (each opening played with both colours), whose five outcomes 0, 0.25, …, 1 make the
variance honest when the openings are unbalanced, and tests the mean pair score against the
logistic scores of the two hypotheses with the usual normal approximation of the log-likelihood
ratio. alpha = beta = 0.05, so the bounds are ±2.94.
"""

import math

ALPHA = 0.05
BETA = 0.05


def elo_from_score(score):
    """The Elo difference that the logistic model turns into `score` (clamped away from 0 and 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo):
    """The expected score of a player `elo` points stronger, by the logistic model."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def llr(penta, elo0, elo1):
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0) and the verdict, from the pair
    counts `penta` (pairs scoring 0, 0.5, 1, 1.5 and 2 points, in that order)."""
    pairs = sum(penta)
    if pairs < 2:
        return 0.0, "continue"
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(n * v for n, v in zip(penta, values)) / pairs
    variance = sum(n * (v - mean) ** 2 for n, v in zip(penta, values)) / pairs
    if variance <= 0:
        return 0.0, "continue"
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    ratio = pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    lower, upper = math.log(BETA / (1 - ALPHA)), math.log((1 - BETA) / ALPHA)
    if ratio >= upper:
        return ratio, "H1 accepted"
    if ratio <= lower:
        return ratio, "H0 accepted"
    return ratio, "continue"


def summary(counts, sprt=None):
    """The one-line summary of a match: `counts` has w, d, l, penta, time_a, time_b, fail_a,
    fail_b and min_clock (engine name → smallest clock in seconds); `sprt` is (elo0, elo1) or
    None."""
    w, d, l = counts["w"], counts["d"], counts["l"]
    games = w + d + l
    if games == 0:
        return "no games"
    score = (w + 0.5 * d) / games
    variance = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / games
    error = math.sqrt(variance / games) if games > 1 else 0.5
    low, high = elo_from_score(score - 1.96 * error), elo_from_score(score + 1.96 * error)
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))) if w + l else 0.5
    line = (f"games {games}  W {w}  D {d}  L {l}  score {100 * score:.1f}%  "
            f"elo {elo_from_score(score):+.1f} [{low:+.1f}, {high:+.1f}]  LOS {100 * los:.1f}%  "
            f"penta {counts['penta']}  forfeits(time) A {counts['time_a']} B {counts['time_b']}  "
            f"failures A {counts['fail_a']} B {counts['fail_b']}")
    if counts["min_clock"]:
        clocks = " ".join(f"{name} {clock:.3f}s" for name, clock in sorted(counts["min_clock"].items()))
        line += "  min-clock " + clocks
    if sprt:
        ratio, verdict = llr(counts["penta"], sprt[0], sprt[1])
        line += f"  LLR {ratio:+.2f} ({verdict})"
    return line
