#!/usr/bin/env python3
"""Count the games of match PGNs drawn by repetition (or by the fifty-move rule) while both
engines said one side was ahead.

Design note: the team's match runner ends a game as soon as the side to move *could* claim a
threefold repetition (python-chess's `outcome(claim_draw=True)`: a move of that side would make
the third occurrence), whether or not that side would have made the move. An engine that
scores only a third occurrence as a draw can then walk, while winning, into a position one of
whose moves repeats a third time, and the game is drawn. This script measures how often that
happens: for each game ended by a repetition it checks whether the threefold had occurred or
was only claimable, and reads each engine's last score (match.py's comments, from White's
view) to see whether both agree that the same side is ahead by at least `--margin`
centipawns, and which engine that side was. With `--rule fifty` it counts the games drawn by
the fifty-move rule instead: a side ahead that can neither repeat nor make progress.

  python3 scripts/research/drawn_ahead.py games/*.pgn.xz
  python3 scripts/research/drawn_ahead.py --engine tropa games/*ethereal*.pgn.xz
  python3 scripts/research/drawn_ahead.py --rule fifty games/twofold-vs-main-8s-seed501.pgn.xz
"""

import argparse
import lzma
import re
import sys
from collections import Counter

import chess

from match_pgn import games

SCORE = re.compile(r"\s*([+-]?\d+)\b")


def scores(game, rule):
    """Each side's centipawn score (White's view), or None; mate scores are skipped. For a
    repetition the last one; for the fifty-move rule the first one after the last pawn move or
    capture, since by the end both engines see the draw and say 0."""
    found_scores = {chess.WHITE: None, chess.BLACK: None}
    board = game.board()
    for node in game.mainline():
        side = board.turn
        if rule == "fifty" and board.is_zeroing(node.move):
            found_scores = {chess.WHITE: None, chess.BLACK: None}
        else:
            found = SCORE.match(node.comment or "")
            if found and (rule == "repetition" or found_scores[side] is None):
                found_scores[side] = int(found.group(1))
        board.push(node.move)
    return found_scores


# The rule as `--rule` names it, and as match.py names it in the Termination tag.
TERMINATIONS = {"repetition": "repetition", "fifty": "fifty_moves"}


def count(paths, margin, engine, rule):
    totals = Counter()
    for path in paths:
        for game in games(path):
            totals["games"] += 1
            if TERMINATIONS[rule] not in game.headers.get("Termination", ""):
                continue
            totals[rule] += 1
            end = game.end().board()
            if rule == "repetition":
                totals["occurred" if end.is_repetition(3) else "claimable"] += 1
            said = scores(game, rule)
            white, black = said[chess.WHITE], said[chess.BLACK]
            if white is None or black is None:
                continue
            if min(white, black) >= margin:
                ahead = chess.WHITE
            elif max(white, black) <= -margin:
                ahead = chess.BLACK
            else:
                continue
            totals["agreed ahead"] += 1
            if rule == "repetition" and end.turn == ahead:
                totals["agreed ahead, the side ahead to move"] += 1
            if engine:
                name = game.headers["White" if ahead == chess.WHITE else "Black"]
                totals[f"agreed ahead: {engine}" if engine in name else "agreed ahead: the other"] += 1
    return totals


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+", help="PGN files written by match.py (.pgn or .pgn.xz)")
    ap.add_argument("--margin", type=int, default=200, help="centipawns both scores must agree on")
    ap.add_argument("--engine", help="a substring of one engine's name, to split the games by it")
    ap.add_argument("--rule", choices=sorted(TERMINATIONS), default="repetition", help="which draws to count")
    args = ap.parse_args()
    try:
        totals = count(args.pgn, args.margin, args.engine, args.rule)
    except (OSError, lzma.LZMAError, ValueError) as err:
        sys.exit(f"error: {err}")
    games = totals["games"]
    if games == 0:
        sys.exit("error: no games read")
    print(f"games {games}")
    for key, value in totals.items():
        if key != "games":
            print(f"{key}: {value} ({100 * value / games:.1f}% of the games)")


if __name__ == "__main__":
    main()
