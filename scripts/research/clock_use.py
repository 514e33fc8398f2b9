#!/usr/bin/env python3
"""How each engine of match PGNs spent its clock.

Design note: the team's match runner writes every move's time into the PGN (`{ +14 0.55s }`),
so the clock of each side can be replayed from the control alone (the PGNs carry no
TimeControl tag, hence `--tc`). Per engine it prints the median seconds used in a game, the
mean time of a move in bands of ten of its own moves, and the median clock left after a given
number of its own moves, counted over the games in which it made at least that many (a clock
that stays high while the increment is small is time never spent). Compare engines of the same
games only: the openings and the length of the games shape every figure.

  python3 scripts/research/clock_use.py --tc 10+0.1 games/twofold-vs-ethereal12-10s-seed1*.pgn.xz
"""

import argparse
import lzma
import re
import statistics
import sys
from collections import defaultdict

from match_pgn import games

MOVE_TIME = re.compile(r"([\d.]+)s\b")
BAND = 10


def parse_tc(text):
    """`base+increment` in seconds."""
    try:
        base, _, inc = text.partition("+")
        return float(base), float(inc or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a control like 10+0.1: {text}")


def clocks(game, base, inc):
    """Per side (True for White): the list of (move time, clock after the move)."""
    out = {True: [], False: []}
    clock = {True: base, False: base}
    side = game.board().turn
    for node in game.mainline():
        found = MOVE_TIME.search(node.comment)
        if found:
            spent = float(found.group(1))
            clock[side] += inc - spent
            out[side].append((spent, clock[side]))
        side = not side
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="match PGNs, plain or .xz")
    parser.add_argument("--tc", type=parse_tc, required=True, help="the control, e.g. 10+0.1")
    parser.add_argument("--after", default="20,40,60",
                        help="own-move counts to report the clock after (default 20,40,60)")
    args = parser.parse_args()
    try:
        after = [int(n) for n in args.after.split(",")]
    except ValueError:
        sys.exit(f"error: --after takes whole numbers separated by commas, not {args.after}")
    base, inc = args.tc

    used = defaultdict(list)
    bands = defaultdict(lambda: defaultdict(list))
    left = defaultdict(lambda: defaultdict(list))
    for path in args.pgn:
        try:
            for game in games(path):
                names = {True: game.headers.get("White", "?"), False: game.headers.get("Black", "?")}
                for side, moves in clocks(game, base, inc).items():
                    name = names[side]
                    used[name].append(sum(spent for spent, _ in moves))
                    for index, (spent, _) in enumerate(moves):
                        bands[name][index // BAND].append(spent)
                    for count in after:
                        if len(moves) >= count:
                            left[name][count].append(moves[count - 1][1])
        except (OSError, lzma.LZMAError) as error:
            sys.exit(f"error: cannot read {path}: {error}")

    if not used:
        sys.exit("error: no games found")
    for name in sorted(used):
        print(f"{name}: {len(used[name])} games, median {statistics.median(used[name]):.2f} s used a game")
        means = [f"{statistics.fmean(bands[name][b]):.3f}" for b in sorted(bands[name])]
        print(f"  mean move time per {BAND} own moves: {' '.join(means)}")
        for count in after:
            values = left[name][count]
            if values:
                print(f"  clock after {count} own moves: median {statistics.median(values):.2f} s"
                      f" ({len(values)} games)")


if __name__ == "__main__":
    main()
