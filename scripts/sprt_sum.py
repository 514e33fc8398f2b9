#!/usr/bin/env python3
"""Add up the runs of one SPRT that was stopped and continued (a machine restart, the end of a
session) and apply the match statistics to the sums.

Design note: the team's match runner decides on pentanomial pair counts, so runs of the same two
engines with different seeds (the same openings file, so the same kind of starts) add up exactly
as one longer run would: the pair counts, wins, draws, losses, forfeits and failures are summed,
the smallest clocks kept, and `sprt_stats.summary` (the runner's formulas) prints the line a
single run would end with. Each log is read for its last `games …` line (what the runner prints
after every game).

  python3 scripts/sprt_sum.py --sprt 0 5 first.log second.log
"""

import argparse
import sys

import sprt_stats


def add(total, part):
    for key in ("w", "d", "l", "time_a", "time_b", "fail_a", "fail_b"):
        total[key] += part[key]
    total["penta"] = [a + b for a, b in zip(total["penta"], part["penta"])]
    for name, clock in part["min_clock"].items():
        total["min_clock"][name] = min(clock, total["min_clock"].get(name, clock))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+", help="the logs of the match runs of one test")
    ap.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"), required=True)
    args = ap.parse_args()
    total = {"w": 0, "d": 0, "l": 0, "penta": [0] * 5, "time_a": 0, "time_b": 0,
             "fail_a": 0, "fail_b": 0, "min_clock": {}}
    for path in args.logs:
        try:
            part = sprt_stats.last_counts(path)
        except OSError as e:
            sys.exit(f"sprt_sum: {path}: {e.strerror}")
        except ValueError as e:
            sys.exit(f"sprt_sum: {path}: {e}")
        if part is None:
            sys.exit(f"sprt_sum: {path}: no 'games' line (not a match.py log?)")
        print(f"{path}: {part['w'] + part['d'] + part['l']} games, penta {part['penta']}")
        add(total, part)
    print(sprt_stats.summary(total, args.sprt))


if __name__ == "__main__":
    main()
