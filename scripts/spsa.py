#!/usr/bin/env python3
"""Tune Tropa's search constants by SPSA: game pairs between two perturbed sets of values.

Design note: the formulation is Fishtest's, which OpenBench uses too, so that a run here and a
run there mean the same. Each constant has a start, a range, a final step C_end and a final
rate R_end. With N iterations, alpha 0.602, gamma 0.101 and A = 0.1 N:
c = C_end N^gamma, a = R_end C_end^2 (A + N)^alpha; at iteration k (from 1) the step is
c_k = c / k^gamma (at least 0.5) and the rate r_k = a / (A + k)^alpha / c_k^2. Every constant
is flipped by a random sign, the engine with value + flip c_k ("dev") plays the one with
value - flip c_k ("base") `--pairs-per` game pairs (integers rounded at random, so that a
step of 0.5 still moves them in expectation), and each value moves by
r_k c_k (dev wins - dev losses) flip, clipped to its range.

The engine must be built with the cargo feature `tune` (its tunable constants are then UCI
options of their own names); `tropa tunables` prints the input lines. Every iteration is a run
of the match runner (`--match`, by default the team's, beside the repository); the run's
state is written to `OUT/state.json` after each iteration (atomically), so a run stopped
anywhere resumes with the same command, and `OUT/iterations.tsv` records every iteration
(step, rate, flips, result, values after it).

  cargo build --release --features tune --target-dir target/tune
  target/tune/release/tropa tunables > params.txt
  python3 scripts/spsa.py target/tune/release/tropa --params params.txt --iterations 20000 \
      --tc 8+0.08 --out spsa-run/
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys

import sprt_stats
from atomic_file import write_atomically

HERE = os.path.dirname(os.path.abspath(__file__))
TEAM = os.path.join(HERE, "..", "..", "shared")
MATCH = os.path.join(TEAM, "tools", "match.py")
OPENINGS = os.path.join(TEAM, "data", "openings", "8moves_v3_sample1000.pgn")


def read_params(path):
    """The SPSA input lines of `path`: name, int|float, start, min, max, C_end, R_end."""
    params = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(",")]
            if len(fields) != 7 or fields[1] not in ("int", "float"):
                sys.exit(f"spsa: {path}:{number}: expected 'name, int|float, start, min, max, "
                         f"C_end, R_end', got '{line}'")
            try:
                start, low, high, c_end, r_end = (float(x) for x in fields[2:])
            except ValueError:
                sys.exit(f"spsa: {path}:{number}: a number is not a number: '{line}'")
            if not low <= start <= high or c_end <= 0 or r_end <= 0:
                sys.exit(f"spsa: {path}:{number}: needs min <= start <= max and positive C_end, "
                         f"R_end: '{line}'")
            params.append({"name": fields[0], "float": fields[1] == "float", "start": start,
                           "min": low, "max": high, "c_end": c_end, "r_end": r_end})
    if not params:
        sys.exit(f"spsa: {path} names no parameter")
    return params


def schedule(params, iterations, alpha, gamma, a_ratio):
    """Fishtest's constants of the run: A, and each parameter's c and a."""
    big_a = a_ratio * iterations
    for p in params:
        p["c"] = p["c_end"] * iterations ** gamma
        p["a"] = p["r_end"] * p["c_end"] ** 2 * (big_a + iterations) ** alpha
    return big_a


def perturbed(p, value, flip, c_k, rng):
    """The values the two engines play with: value ± flip·c_k, integers rounded at random."""
    dev, base = value + flip * c_k, value - flip * c_k
    if not p["float"]:
        shift = rng.random()
        dev, base = math.floor(dev + shift), math.floor(base + shift)
    clip = lambda x: min(max(x, p["min"]), p["max"])
    return clip(dev), clip(base)


def option_value(p, x):
    return f"{x:.6g}" if p["float"] else str(int(x))


def play(args, params, devs, bases, seed):
    """Plays the game pairs of one iteration; returns the dev engine's (wins, draws, losses)."""
    command = [sys.executable, args.match, "--a", args.engine, "--a-name", "dev",
               "--b", args.engine, "--b-name", "base", "--tc", args.tc,
               "--games", str(2 * args.pairs_per), "--openings", args.openings, "--shuffle",
               "--seed", str(seed), "--concurrency", str(args.concurrency), "--quiet"]
    for side, values in (("--a-opt", devs), ("--b-opt", bases)):
        command += [side, f"Hash={args.hash}"]
        for p, x in zip(params, values):
            command += [side, f"{p['name']}={option_value(p, x)}"]
    out = subprocess.run(command, capture_output=True, text=True)
    try:
        counts = sprt_stats.final_counts(out.stdout.splitlines())
    except ValueError:
        counts = None
    if out.returncode != 0 or counts is None:
        sys.exit(f"spsa: the match runner failed ({out.returncode}): "
                 f"{(out.stderr or out.stdout).strip()[-600:]}")
    return counts["w"], counts["d"], counts["l"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="a Tropa binary built with --features tune")
    ap.add_argument("--params", required=True, help="SPSA input lines (`tropa tunables`)")
    ap.add_argument("--iterations", type=int, required=True, help="iterations of the whole run")
    ap.add_argument("--out", required=True, help="folder for the state and the iteration log")
    ap.add_argument("--pairs-per", type=int, default=1, help="game pairs an iteration")
    ap.add_argument("--tc", default="8+0.08")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--alpha", type=float, default=0.602)
    ap.add_argument("--gamma", type=float, default=0.101)
    ap.add_argument("--a-ratio", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1, help="flips, rounding and openings")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--stop-after", type=int, help="stop after this many iterations of this call")
    ap.add_argument("--match", default=MATCH, help="the team's match runner")
    ap.add_argument("--openings", default=OPENINGS)
    args = ap.parse_args()
    for path, what in [(args.match, "match runner"), (args.openings, "openings"),
                       (args.engine, "engine"), (args.params, "parameter file")]:
        if not os.path.exists(path):
            sys.exit(f"spsa: no {what} at {path}")
    params = read_params(args.params)
    big_a = schedule(params, args.iterations, args.alpha, args.gamma, args.a_ratio)
    os.makedirs(args.out, exist_ok=True)
    state_path = os.path.join(args.out, "state.json")
    run = {"params": [{k: p[k] for k in ("name", "float", "start", "min", "max", "c_end",
                                         "r_end")} for p in params],
           "iterations": args.iterations, "pairs_per": args.pairs_per, "tc": args.tc,
           "alpha": args.alpha, "gamma": args.gamma, "a_ratio": args.a_ratio,
           "seed": args.seed}
    if os.path.exists(state_path):
        with open(state_path) as f:
            state = json.load(f)
        if state["run"] != run:
            sys.exit(f"spsa: {state_path} belongs to another run (parameters, iterations, "
                     "control or seed differ); use another --out")
    else:
        state = {"run": run, "done": 0, "values": [p["start"] for p in params],
                 "wins": 0, "draws": 0, "losses": 0}
    log_path = os.path.join(args.out, "iterations.tsv")
    if state["done"] and os.path.exists(log_path):
        # A run stopped between its log and its state logged an iteration it will play again.
        with open(log_path) as f:
            lines = f.readlines()
        kept = lines[:1] + [l for l in lines[1:] if int(l.split("\t")[0]) <= state["done"]]
        write_atomically(log_path, "".join(kept).encode())
    if state["done"] == 0:
        header = ["iteration", "wins", "draws", "losses"]
        header += [f"{p['name']}:{x}" for p in params for x in ("c", "r", "flip", "value")]
        write_atomically(log_path, ("\t".join(header) + "\n").encode())
    played = 0
    while state["done"] < args.iterations and (args.stop_after is None
                                               or played < args.stop_after):
        k = state["done"] + 1
        rng = random.Random(args.seed * 1_000_003 + k)
        c_k, r_k, flips, devs, bases = [], [], [], [], []
        for p, value in zip(params, state["values"]):
            c = max(p["c"] / k ** args.gamma, 0.0 if p["float"] else 0.5)
            flip = rng.choice((-1, 1))
            dev, base = perturbed(p, value, flip, c, rng)
            c_k.append(c)
            r_k.append(p["a"] / (big_a + k) ** args.alpha / c ** 2)
            flips.append(flip)
            devs.append(dev)
            bases.append(base)
        wins, draws, losses = play(args, params, devs, bases, args.seed * 1_000_003 + k)
        values = []
        for p, value, c, r, flip in zip(params, state["values"], c_k, r_k, flips):
            moved = value + r * c * (wins - losses) * flip
            values.append(min(max(moved, p["min"]), p["max"]))
        state.update(done=k, values=values, wins=state["wins"] + wins,
                     draws=state["draws"] + draws, losses=state["losses"] + losses)
        row = [k, wins, draws, losses]
        for c, r, flip, value in zip(c_k, r_k, flips, values):
            row += [f"{c:.4f}", f"{r:.6f}", flip, f"{value:.4f}"]
        with open(log_path, "a") as f:
            f.write("\t".join(str(x) for x in row) + "\n")
        write_atomically(state_path, (json.dumps(state, indent=1) + "\n").encode())
        played += 1
    print(f"{state['done']} of {args.iterations} iterations, dev W {state['wins']} "
          f"D {state['draws']} L {state['losses']}")
    for p, value in zip(params, state["values"]):
        shown = f"{value:.4f}" if p["float"] else str(int(round(value)))
        print(f"{p['name']}, {shown}")


if __name__ == "__main__":
    main()
