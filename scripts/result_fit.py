#!/usr/bin/env python3
"""How well evaluations predict game results, on positions none of them was trained on.

Takes every STEP-th position of a labelled file (`FEN;result;score` lines, plain or xz, the
result from White's view: 1, 0.5 or 0; such as ../shared/data/tuning/tcec_quiet_labeled.txt.xz,
games of other engines that Tropa's nets never train on), asks Tropa for UCI `eval` on each
with every net named (and reports the hand-crafted evaluation too), and fits for each
evaluation the scale K (centipawns) that minimises the mean squared error between
sigmoid(score / K) and the result. The error at the best K compares evaluations whatever their
scale: lower predicts the results better. A proxy for strength, not a substitute for a match:
the search, not the evaluation alone, plays the games. The hand-crafted evaluation's weights
were tuned on the TCEC positions themselves (`tropa tune`), so on them its row is no
independent figure; the nets' rows are.

Design note: the positions, the engine binary and the sampling are those of eval_scale.py
(imported), so the two reports read the same positions; K is found by a scan over 50..1500
cp, which is exact enough at the three decimals printed.

With --file-scores the file's own scores (the searches of the engines that played the games)
get a row too, over the lines that have one: the scale of those engines' centipawns against
Tropa's (the ratio of the best K) is what `tropa-trainer --labelled-score-factor` takes.

Example:
  python3 scripts/result_fit.py target/release/tropa ../shared/data/tuning/tcec_quiet_labeled.txt.xz \\
      --step 99 --count 20000 --eval-file net5.nnue --eval-file net6.nnue
"""
import lzma
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_scale import sample, sampling_parser, scores  # noqa: E402


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def best_fit(scored):
    """(K, mean squared error) at the best scale for (White's score, White's result) pairs."""
    def error(k):
        return sum((sigmoid(s / k) - r) ** 2 for s, r in scored) / len(scored)
    return min(((k, error(k)) for k in range(50, 1501, 5)), key=lambda fit: fit[1])


def file_score(fields):
    """A line's own score (White's view), or None when it has none."""
    try:
        return float(fields[2])
    except (IndexError, ValueError):
        return None


def main():
    ap = sampling_parser(__doc__)
    ap.add_argument("--eval-file", action="append", default=[],
                    help="a net file (repeatable); none: the built-in net")
    ap.add_argument("--file-scores", action="store_true",
                    help="also fit the file's own scores (the lines that have one, within 3000 cp)")
    args = ap.parse_args()
    try:
        lines = sample(args.positions, args.step, args.count)
    except (OSError, EOFError, lzma.LZMAError) as e:
        sys.exit(f"error: {e}")
    try:
        results = [float(fields[1]) for fields in lines]
    except (IndexError, ValueError):
        sys.exit(f"error: {args.positions}: a line without a result (FEN;result;score)")
    if not lines:
        sys.exit(f"error: no positions in {args.positions}")
    fens = [fields[0] for fields in lines]
    rows = []
    for net in args.eval_file or [None]:
        try:
            pairs = scores(args.engine, fens, net)
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"error: {e}")
        if len(pairs) != len(fens):
            sys.exit(f"error: {len(pairs)} scores for {len(fens)} positions with {net or 'the built-in net'}"
                     " (did the engine reject the net?)")
        if not rows:
            rows.append(("hand-crafted", [(h, r) for (h, _), r in zip(pairs, results)]))
        rows.append((net or "built-in net", [(n, r) for (_, n), r in zip(pairs, results)]))
    if args.file_scores:
        own = [(score, r) for fields, r in zip(lines, results)
               if (score := file_score(fields)) is not None and abs(score) <= 3000]
        if own:
            rows.append((f"the file's scores ({len(own)} positions)", own))
    print(f"{len(fens)} positions of {args.positions}, one line in {args.step}")
    for name, scored in rows:
        k, error = best_fit(scored)
        print(f"{name}: mean squared error {error:.5f} at K {k} cp")


if __name__ == "__main__":
    main()
