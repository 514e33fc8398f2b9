#!/usr/bin/env python3
"""Scale of the net's scores against the hand-crafted evaluation's.

Takes every STEP-th position of a labelled file (`FEN;result;score` lines, plain or xz, such as
../shared/data/tuning/tcec_quiet_labeled.txt.xz), asks one Tropa process for UCI `eval` on each
(it prints the hand-crafted total and then the net's score), and reports the least-squares
slope of the net's score on the hand-crafted score through the origin, their correlation and
both median absolute scores, over the positions where both stay within 1000 cp. A slope above 1
means the net's centipawns are larger, so margins tuned in hand-crafted centipawns are tighter
with the net.

Example:
  python3 scripts/eval_scale.py target/release/tropa ../shared/data/tuning/tcec_quiet_labeled.txt.xz
"""
import argparse
import lzma
import re
import statistics
import subprocess
import sys

HCE = re.compile(r"info string total (-?\d+) \(White's view\)")
NET = re.compile(r"info string net .*: (-?\d+) \(White's view\)")


def sample(path, step, count):
    """Every STEP-th line of a labelled file, at most COUNT: the lines' fields (FEN first)."""
    opener = lzma.open if path.endswith(".xz") else open
    lines = []
    with opener(path, "rt") as f:
        for i, line in enumerate(f):
            if i % step == 0 and line.strip():
                lines.append([field.strip() for field in line.split(";")])
                if len(lines) >= count:
                    break
    return lines


def scores(engine, fens, net):
    """(hand-crafted, net) White's-view scores of each position, in order."""
    setup = f"setoption name EvalFile value {net}\n" if net else ""
    commands = "uci\n" + setup + "".join(f"position fen {fen}\neval\n" for fen in fens) + "quit\n"
    out = subprocess.run([engine], input=commands, capture_output=True, text=True, check=True).stdout
    pairs, hce = [], None
    for line in out.splitlines():
        if m := HCE.match(line):
            hce = int(m.group(1))
        elif (m := NET.match(line)) and hce is not None:
            pairs.append((hce, int(m.group(1))))
            hce = None
    return pairs


def sampling_parser(description):
    """A command line with the engine, the labelled file and how it is sampled (`sample`)."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="the tropa binary")
    ap.add_argument("positions", help="FEN;result;score lines, plain or .xz")
    ap.add_argument("--step", type=int, default=997, help="take every STEP-th line (default 997)")
    ap.add_argument("--count", type=int, default=2000, help="at most this many positions (default 2000)")
    return ap


def main():
    ap = sampling_parser(__doc__)
    ap.add_argument("--eval-file", help="a net file instead of the built-in net")
    args = ap.parse_args()
    try:
        fens = [fields[0] for fields in sample(args.positions, args.step, args.count)]
        found = scores(args.engine, fens, args.eval_file) if fens else []
    except (OSError, EOFError, lzma.LZMAError, subprocess.CalledProcessError) as e:
        sys.exit(f"error: {e}")
    if not fens:
        sys.exit(f"error: no positions in {args.positions}")
    pairs = [(h, n) for h, n in found if abs(h) < 1000 and abs(n) < 1000]
    if len(pairs) < 2 or not any(h for h, _ in pairs):
        sys.exit("error: the engine printed no pairs of scores (is a net in use?)")
    hce = [h for h, _ in pairs]
    net = [n for _, n in pairs]
    slope = sum(h * n for h, n in pairs) / sum(h * h for h in hce)
    print(f"{len(pairs)} of {len(fens)} positions: slope net/hand-crafted {slope:.3f}, "
          f"correlation {statistics.correlation(hce, net):.3f}, "
          f"median |score| net {statistics.median(map(abs, net))} cp, "
          f"hand-crafted {statistics.median(map(abs, hce))} cp")


if __name__ == "__main__":
    main()
