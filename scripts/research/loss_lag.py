#!/usr/bin/env python3
"""How late an engine sees a decided game coming, against how early its opponent does.

Reads match.py games (PGN, plain or .xz; each move's comment starts with the mover's search
score from White's view, as match.py writes it) and, for every game the engine lost, finds
the ply at which the opponent's own score first stays at THRESHOLD or more in its favour for
HOLD of its moves in a row, and the ply at which the engine's score first stays at THRESHOLD
or more against itself as long. The difference is the lag: how many plies after the opponent
the engine saw the loss (the first bin, "<=2", takes in the games where the loser saw it
first). The same for the games it won, with the roles turned, tells how much
of the lag is only the two engines' scales. Games where either side never holds such a score
are counted apart.

Design note: a lag of a few plies is a tactic the winner's search saw first; tens of plies
are a judgement the loser's evaluation lacks, which a deeper search does not buy.

Example:
  python3 scripts/research/loss_lag.py --engine tropa games/speed-vs-ethereal12-10s.pgn.xz
"""
import argparse
import collections
import re
import sys

import chess

from match_pgn import games

SCORE = re.compile(r"\s*(#?[+-]?#?\d+)")
BINS = [(2, "<=2"), (10, "3-10"), (30, "11-30"), (None, ">30")]


def score_of(comment):
    """The mover's score from White's view in centipawns (a mate counts 30000), or None."""
    found = SCORE.match(comment or "")
    if not found:
        return None
    token = found.group(1)
    if "#" in token:
        return -30000 if "-" in token else 30000
    return int(token)


def first_held(scores, threshold, hold):
    """The ply where `scores` (ply, own-view score) first stay at or above `threshold` for
    `hold` entries in a row, or None."""
    for i, (ply, _) in enumerate(scores):
        window = scores[i : i + hold]
        if len(window) == hold and all(s >= threshold for _, s in window):
            return ply
    return None


def lag_bin(lag):
    """The histogram bin of a lag in plies."""
    return next(name for bound, name in BINS if bound is None or lag <= bound)


def lags(paths, engine, threshold, hold):
    """Lag histograms of the engine's losses and wins, over every game of `paths`."""
    counts = {"lost": collections.Counter(), "won": collections.Counter()}
    for path in paths:
        for game in games(path):
            engine_white = game.headers.get("White", "").startswith(engine)
            if not engine_white and not game.headers.get("Black", "").startswith(engine):
                continue
            result = game.headers.get("Result")
            won = result == ("1-0" if engine_white else "0-1")
            lost = result == ("0-1" if engine_white else "1-0")
            if not (won or lost):
                continue
            own, theirs = [], []
            for node in game.mainline():
                score = score_of(node.comment)
                if score is None:
                    continue
                mover_white = node.turn() == chess.BLACK
                mover_view = score if mover_white else -score
                (own if mover_white == engine_white else theirs).append((node.ply(), mover_view))
            winner, loser = (own, theirs) if won else (theirs, own)
            seen_by_winner = first_held(winner, threshold, hold)
            loser_flipped = [(ply, -s) for ply, s in loser]
            seen_by_loser = first_held(loser_flipped, threshold, hold)
            histogram = counts["won" if won else "lost"]
            if seen_by_winner is None or seen_by_loser is None:
                histogram["never held"] += 1
            else:
                histogram[lag_bin(seen_by_loser - seen_by_winner)] += 1
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+", help="match.py PGN files (plain or .xz)")
    parser.add_argument("--engine", required=True, help="name prefix of the engine studied")
    parser.add_argument("--threshold", type=int, default=150, help="centipawns (default 150)")
    parser.add_argument("--hold", type=int, default=4, help="moves in a row (default 4)")
    args = parser.parse_args()
    try:
        counts = lags(args.pgn, args.engine, args.threshold, args.hold)
    except OSError as error:
        sys.exit(f"loss_lag.py: {error}")
    names = [name for _, name in BINS] + ["never held"]
    for outcome, who in (("lost", "the opponent"), ("won", args.engine)):
        histogram = counts[outcome]
        total = sum(histogram.values())
        cells = ", ".join(f"{name}: {histogram[name]}" for name in names)
        print(f"{total} games {args.engine} {outcome}; plies by which {who} saw it first: {cells}")


if __name__ == "__main__":
    main()
