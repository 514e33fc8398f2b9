#!/usr/bin/env python3
"""One strength level's Elo from several of its matches against anchors of known rating.

Design note: `calibrate_levels.py` rates a level by one counted match (anchor + the Elo
difference scored). When a level has more games against known anchors (another match, or the
check of a `UCI_Elo` that falls exactly on the level), all of them say where it stands, and the
rating that explains them together is the one at which the points expected by the logistic
model equal the points scored, summed over the matches (each match weighted by its games and
the spread of its per-game scores, as `sprt_stats.elo_interval` measures it). Its 95% interval
comes from the same normal approximation. Each log is a match runner's log whose first line is
its command, from which the opponent's `UCI_Elo` is read, as `calibrate_levels.py` writes them.

  python3 scripts/pool_level.py cal/level-1.5.log ver/verify1500.log
"""

import argparse
import math
import re
import sys

import sprt_stats

LN10_400 = math.log(10) / 400


def anchor_of(path):
    """The `UCI_Elo` given to the opponent on the command line (first line) of a match log."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            command = f.readline()
    except OSError as e:
        sys.exit(f"pool_level: {e}")
    found = re.search(r"--b-opt UCI_Elo=(\d+)", command)
    if not found:
        sys.exit(f"pool_level: {path}: its first line names no --b-opt UCI_Elo=N")
    return int(found.group(1))


def pooled_rating(matches):
    """(rating, low, high) of a player from `matches`, each (anchor, counts with w, d, l)."""
    def excess(rating):
        # Points scored minus points expected, over all matches: falls as the rating rises.
        return sum((c["w"] + 0.5 * c["d"]) - (c["w"] + c["d"] + c["l"])
                   * sprt_stats.score_from_elo(rating - anchor) for anchor, c in matches)
    low, high = -2000.0, 6000.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if excess(middle) > 0 else (low, middle)
    rating = (low + high) / 2
    information = 0.0
    for anchor, c in matches:
        games = c["w"] + c["d"] + c["l"]
        _, variance = sprt_stats.score_and_variance(c)
        expected = sprt_stats.score_from_elo(rating - anchor)
        slope = LN10_400 * expected * (1 - expected)
        information += games * slope ** 2 / max(variance, 1e-9)
    error = 1 / math.sqrt(information) if information > 0 else float("inf")
    return rating, rating - 1.96 * error, rating + 1.96 * error


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+", help="match logs of the same level")
    args = ap.parse_args()
    matches = []
    for path in args.logs:
        anchor = anchor_of(path)
        try:
            counts = sprt_stats.last_counts(path)
        except (OSError, ValueError) as e:
            sys.exit(f"pool_level: {path}: {e}")
        if counts is None or counts["w"] + counts["d"] + counts["l"] == 0:
            sys.exit(f"pool_level: no result in {path}")
        matches.append((anchor, counts))
        score, elo, low, high = sprt_stats.elo_interval(counts)
        games = counts["w"] + counts["d"] + counts["l"]
        print(f"{path}: {games} games against {anchor}: {anchor + elo:.0f} "
              f"[{anchor + low:.0f}, {anchor + high:.0f}]")
    if all(c["w"] + c["d"] == 0 for _, c in matches) or all(
            c["d"] + c["l"] == 0 for _, c in matches):
        sys.exit("pool_level: every game won or every game lost: no rating fits")
    rating, low, high = pooled_rating(matches)
    print(f"pooled: {sum(c['w'] + c['d'] + c['l'] for _, c in matches)} games: "
          f"{rating:.0f} [{low:.0f}, {high:.0f}]")


if __name__ == "__main__":
    main()
