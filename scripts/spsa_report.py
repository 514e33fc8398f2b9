#!/usr/bin/env python3
"""Where an SPSA run of `spsa.py` stands, and which of its pushes the games can tell from noise.

Design note: the values after a few hundred iterations mix two things, a push the games keep
giving and a random walk. They part by the iteration log alone: for a constant that does not
change the results, its random flip is independent of each iteration's (wins - losses), so
z = sum((wins - losses) flip) / sqrt(sum((wins - losses)^2)) is about normal with mean 0 and
deviation 1; a constant the games push one way has |z| well above 2. With twenty constants,
one |z| above 3 turns up by chance about once in twenty runs, one above 2 most of the time.
The report reads `OUT/state.json` and `OUT/iterations.tsv` and writes nothing.

  python3 scripts/spsa_report.py spsa-run/             # a text table
  python3 scripts/spsa_report.py spsa-run/ --markdown  # the table of docs/history/search.md
"""

import argparse
import csv
import json
import math
import os
import sys


def load(folder):
    """The run's state, each iteration's (wins - losses) and each constant's flips; exits with
    a message when the run is unreadable."""
    state_path = os.path.join(folder, "state.json")
    log_path = os.path.join(folder, "iterations.tsv")
    try:
        with open(state_path) as f:
            state = json.load(f)
        with open(log_path, newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        names = [p["name"] for p in state["run"]["params"]]
        done = state["done"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"spsa_report: {folder} holds no readable SPSA run: {e}")
    rows = [r for r in rows if r.get("iteration", "").isdigit() and int(r["iteration"]) <= done]
    if len(rows) != done:
        sys.exit(f"spsa_report: {log_path} logs {len(rows)} iterations, the state {done}")

    def column(r, name):
        try:
            return int(r[name])
        except (KeyError, TypeError, ValueError):
            sys.exit(f"spsa_report: {log_path}: iteration {r['iteration']} has no integer "
                     f"'{name}'")

    margins = [column(r, "wins") - column(r, "losses") for r in rows]
    flips = {n: [column(r, f"{n}:flip") for r in rows] for n in names}
    return state, margins, flips


def push_z(margins, flips):
    """How consistently the games pushed a constant one way (see the design note); 0 without
    decided games."""
    spread = math.sqrt(sum(m * m for m in margins))
    return sum(m * f for m, f in zip(margins, flips)) / spread if spread else 0.0


def report(state, margins, flips):
    """One line per constant: name, start, value, the engine's value, moved in C_end, z."""
    lines = []
    for p, value in zip(state["run"]["params"], state["values"]):
        used = value if p["float"] else int(round(value))
        lines.append((p["name"], p["start"], value, used, (value - p["start"]) / p["c_end"],
                      push_z(margins, flips[p["name"]])))
    return lines


def number(x, digits, signed=False):
    """`x` with a true minus sign (and a plus sign if `signed`), as the docs write numbers."""
    return f"{x:{'+' if signed else ''}.{digits}f}".replace("-", "\u2212")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="the run's folder (spsa.py --out)")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table for the docs")
    args = ap.parse_args()
    state, margins, flips = load(args.out)
    run = state["run"]
    print(f"{state['done']} of {run['iterations']} iterations, {2 * run['pairs_per']} games "
          f"each; dev W {state['wins']} D {state['draws']} L {state['losses']}")
    lines = report(state, margins, flips)
    if args.markdown:
        print(f"\n| constant | start | after {state['done']} | moved (C_end) | push z |")
        print("|---|---|---|---|---|")
        for name, start, value, _, moved, z in lines:
            print(f"| {name} | {number(start, 0 if start == int(start) else 2)} | "
                  f"{number(value, 2)} | {number(moved, 2, True)} | {number(z, 2, True)} |")
    else:
        print(f"{'constant':28} {'start':>9} {'value':>11} {'engine':>8} {'moved':>7} "
              f"{'z':>6}")
        for name, start, value, used, moved, z in lines:
            print(f"{name:28} {start:9g} {value:11.4f} {used:8g} {moved:+7.2f} {z:+6.2f}")


if __name__ == "__main__":
    main()
