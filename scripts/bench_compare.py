#!/usr/bin/env python3
"""Compare the speed of two Tropa binaries with `tropa bench`, run alternately.

The machine's two cores are shared, so one run of each says little: this runs the two
binaries in turn, ROUNDS times each (A B, B A, A B, ... so neither always goes first), and
prints the median nodes per second of each and their ratio. It checks that both search the
same tree (the same node count), which is what makes a pure speed change measurable without
a match; a differing count is reported and the ratio is still printed.

Usage: scripts/bench_compare.py BASE NEW [--rounds N] [--depth D] [--hash MB]
"""

import argparse
import statistics
import subprocess
import sys


def bench(binary, depth, hash_mb):
    """Runs `binary bench` and returns (nodes, nps) from its last line."""
    args = [binary, "bench"] + ([str(depth)] if depth else [])
    args += ["--hash", str(hash_mb)] if hash_mb else []
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    last = (out.stdout + out.stderr).strip().splitlines()[-1].split()
    if len(last) < 4 or last[1] != "nodes" or last[3] != "nps":
        raise ValueError(f"{binary}: unexpected last line of bench: {' '.join(last)}")
    return int(last[0]), int(last[2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--depth", type=int, default=0, help="bench depth (0: the default)")
    parser.add_argument("--hash", type=int, default=0, help="table size in MB (0: the default)")
    opts = parser.parse_args()
    if opts.rounds < 1:
        sys.exit("error: --rounds must be at least 1")
    # Kept by position, not by path, so that a binary against itself (a noise check) works.
    binaries = [opts.base, opts.new]
    speeds = [[], []]
    nodes = [0, 0]
    for r in range(opts.rounds):
        for side in (0, 1) if r % 2 == 0 else (1, 0):
            try:
                nodes[side], nps = bench(binaries[side], opts.depth, opts.hash)
            except (OSError, subprocess.CalledProcessError, ValueError) as e:
                sys.exit(f"error: {e}")
            speeds[side].append(nps)
    base = statistics.median(speeds[0])
    new = statistics.median(speeds[1])
    for side, name in enumerate(("base", "new")):
        runs = " ".join(str(s) for s in speeds[side])
        median = statistics.median(speeds[side])
        print(f"{name}: {nodes[side]} nodes, median {median:.0f} nps ({runs})")
    if nodes[0] != nodes[1]:
        print("the node counts differ: the two binaries search different trees")
    print(f"ratio new/base: {new / base:.3f} over {opts.rounds} rounds")


if __name__ == "__main__":
    main()
