"""The statistics of an engine match, as the team's match runner prints them: the score, the Elo
difference with its 95% interval, the likelihood of superiority, and the generalised SPRT on
pentanomial pair scores. `sprt_sum.py` applies them to the sums of several runs.

Design note: the formulas are the usual ones for engine testing. The Elo interval comes from the
normal approximation of the per-game score (wins 1, draws 0.5, losses 0); the SPRT uses the
game pairs (each opening played with both colours), whose five outcomes 0, 0.25, …, 1 make the
variance honest when the openings are unbalanced, and tests the mean pair score against the
logistic scores of the two hypotheses with the usual normal approximation of the log-likelihood
ratio. alpha = beta = 0.05, so the bounds are ±2.94. The runner's result lines are read back by
`last_counts` (a log) and `final_counts` (any lines), for the scripts that drive it.
"""

import math
import re

ALPHA = 0.05
BETA = 0.05

# A result line of the match runner, after the game count: W, D, L, the pair counts, the time
# forfeits and failures of each side, and the smallest clock each engine had (if printed).
LINE = re.compile(
    r"games (\d+)\s+W (\d+)\s+D (\d+)\s+L (\d+).*?penta \[([\d, ]+)\]"
    r"\s+forfeits\(time\) A (\d+) B (\d+)\s+failures A (\d+) B (\d+)(?:\s+min-clock (.*?))?"
    r"(?:\s+LLR|$)"
)
CLOCK = re.compile(r"(\S+) ([\d.]+)s")


def final_counts(lines):
    """The counts of the last `games …` line among `lines` (a `FINAL ` before it is allowed), as
    `summary` takes them; None if there is no such line, ValueError if it cannot be read."""
    last = None
    for line in lines:
        text = line.strip()
        if text.startswith("FINAL "):
            text = text[len("FINAL "):]
        if text.startswith("games "):
            last = text
    if last is None:
        return None
    m = LINE.search(last)
    if not m:
        raise ValueError(f"cannot read the result line: {last[:80]}")
    w, d, l = (int(m.group(i)) for i in (2, 3, 4))
    return {
        "w": w,
        "d": d,
        "l": l,
        "penta": [int(x) for x in m.group(5).split(",")],
        "time_a": int(m.group(6)),
        "time_b": int(m.group(7)),
        "fail_a": int(m.group(8)),
        "fail_b": int(m.group(9)),
        "min_clock": {k: float(v) for k, v in CLOCK.findall(m.group(10) or "")},
    }


def last_counts(path):
    """`final_counts` of the log at `path`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return final_counts(f)


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


def score_and_variance(counts):
    """The mean per-game score (0 to 1) of `counts` (w, d, l; at least one game) and the
    variance of the per-game scores about it."""
    w, d, l = counts["w"], counts["d"], counts["l"]
    games = w + d + l
    score = (w + 0.5 * d) / games
    return score, (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / games


def elo_interval(counts):
    """The score (0 to 1) of `counts` (w, d, l; at least one game), its Elo difference and the
    95% interval of that."""
    games = counts["w"] + counts["d"] + counts["l"]
    score, variance = score_and_variance(counts)
    error = math.sqrt(variance / games) if games > 1 else 0.5
    low, high = elo_from_score(score - 1.96 * error), elo_from_score(score + 1.96 * error)
    return score, elo_from_score(score), low, high


def summary(counts, sprt=None):
    """The one-line summary of a match: `counts` has w, d, l, penta, time_a, time_b, fail_a,
    fail_b and min_clock (engine name → smallest clock in seconds); `sprt` is (elo0, elo1) or
    None."""
    w, d, l = counts["w"], counts["d"], counts["l"]
    games = w + d + l
    if games == 0:
        return "no games"
    score, elo, low, high = elo_interval(counts)
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))) if w + l else 0.5
    line = (f"games {games}  W {w}  D {d}  L {l}  score {100 * score:.1f}%  "
            f"elo {elo:+.1f} [{low:+.1f}, {high:+.1f}]  LOS {100 * los:.1f}%  "
            f"penta {counts['penta']}  forfeits(time) A {counts['time_a']} B {counts['time_b']}  "
            f"failures A {counts['fail_a']} B {counts['fail_b']}")
    if counts["min_clock"]:
        clocks = " ".join(f"{name} {clock:.3f}s" for name, clock in sorted(counts["min_clock"].items()))
        line += "  min-clock " + clocks
    if sprt:
        ratio, verdict = llr(counts["penta"], sprt[0], sprt[1])
        line += f"  LLR {ratio:+.2f} ({verdict})"
    return line
