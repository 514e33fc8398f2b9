#!/usr/bin/env python3
"""Calibrate Tropa's strength levels against Stockfish's own weakened levels, and check the
result.

Design note: a level's Elo is the `UCI_Elo` of the Stockfish it plays plus the Elo difference
Tropa scores against it (docs/strength-limiting.md says why Stockfish's scale, and its
caveats). The anchor should sit near the level's strength, where a match says the most, so each
level is first probed with a few games against a guess and the anchor moved by what the probe
showed; the full match is then played against that anchor, and only its games count. The guess
for a level comes from the level below it (its measured Elo plus `--guess-step` Elo a level),
so a run needs no table to start from. `--recalibrate` instead takes the levels and the guesses
from the table in force (`ELO_BY_LEVEL` in `src/search/strength.rs`): after a change to the net
or the search, each level is probed where it stood before. `--verify` plays Tropa with
`UCI_LimitStrength` at `UCI_Elo` N against Stockfish at the same N: what a user who asks for N
gets, which should be within the interval of an even score.

Every match is a run of the team's match runner (`--match`, by default the team's folder beside
the repository); its log and games are kept in `--out`, and the summary is printed as a Markdown
table and, for a calibration, as the `ELO_BY_LEVEL` array of `src/search/strength.rs`.

  python3 scripts/calibrate_levels.py target/release/tropa --levels=-8,-4,0,5,10,20 --out cal/
  python3 scripts/calibrate_levels.py target/release/tropa --recalibrate --out cal/
  python3 scripts/calibrate_levels.py target/release/tropa --verify 1500,1800,2100 --out ver/

(`--levels=` with the equals sign, so that a list starting with a negative level is not read as
an option.) Tropa plays each level with `tropa uci --level L`, which fixes the level for the
session: `Skill Level` names only the whole levels from 0, while `UCI_Elo` reaches below them.
"""

import argparse
import os
import re
import subprocess
import sys

import sprt_stats

HERE = os.path.dirname(os.path.abspath(__file__))
TEAM = os.path.join(HERE, "..", "..", "shared")
MATCH = os.path.join(TEAM, "tools", "match.py")
TABLE = os.path.join(HERE, "..", "src", "search", "strength.rs")
OPENINGS = os.path.join(TEAM, "data", "openings", "8moves_v3_sample1000.pgn")
# Stockfish 15.1's `UCI_Elo` range.
ANCHOR_MIN, ANCHOR_MAX = 1350, 2850


def last_result(path):
    """(games, W, D, L, score %, elo, low, high) of the last result line of a match log."""
    try:
        counts = sprt_stats.last_counts(path)
    except ValueError as e:
        sys.exit(f"calibrate_levels: {path}: {e}")
    if counts is None or counts["w"] + counts["d"] + counts["l"] == 0:
        sys.exit(f"calibrate_levels: no result in {path}")
    score, elo, low, high = sprt_stats.elo_interval(counts)
    w, d, l = counts["w"], counts["d"], counts["l"]
    return (w + d + l, w, d, l, 100 * score, elo, low, high)


def play(args, name, tropa, tropa_options, anchor, games, seed):
    """One match of Tropa (the command `tropa`, with `tropa_options`) against Stockfish at
    `UCI_Elo` `anchor`; returns its result (see `last_result`)."""
    log = os.path.join(args.out, name + ".log")
    command = [sys.executable, args.match, "--a", tropa, "--a-name", "tropa",
               "--a-opt", "Hash=64", "--a-opt", "OwnBook=false"]
    for option in tropa_options:
        command += ["--a-opt", option]
    command += ["--b", args.stockfish, "--b-name", f"stockfish-{anchor}",
                "--b-opt", "Hash=64", "--b-opt", "UCI_LimitStrength=true",
                "--b-opt", f"UCI_Elo={anchor}", "--tc", args.tc, "--games", str(games),
                "--openings", args.openings, "--shuffle", "--seed", str(seed),
                "--concurrency", str(args.concurrency),
                "--pgn", os.path.join(args.out, name + ".pgn")]
    with open(log, "w") as out:
        out.write(" ".join(command) + "\n")
        out.flush()
        status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
    if status != 0:
        sys.exit(f"calibrate_levels: the match runner failed ({status}); see {log}")
    return last_result(log)


def clamp_anchor(elo):
    return int(min(max(round(elo / 10) * 10, ANCHOR_MIN), ANCHOR_MAX))


def row(label, anchor, result, extra=""):
    games, w, d, l, score, elo, low, high = result
    return (f"| {label} | Stockfish 15.1, `UCI_Elo` {anchor} | {games} | {w}–{d}–{l} | "
            f"{score:.1f}% | {elo:+.0f} [{low:+.0f}, {high:+.0f}] |{extra}")


def number_list(kind):
    """An argparse type: a comma-separated list of `kind` (float or int), at least one."""
    def parse(text):
        try:
            return [kind(x) for x in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}")
    return parse


def table_in_force(path):
    """The (level, Elo) points of the `ELO_BY_LEVEL` array in the Rust source at `path`."""
    try:
        with open(path) as f:
            source = f.read()
    except OSError as e:
        sys.exit(f"calibrate_levels: cannot read the table: {e}")
    array = re.search(r"ELO_BY_LEVEL:[^=]*=\s*\[(.*?)\];", source, re.S)
    number = r"\s*(-?\d+(?:\.\d+)?)\s*"
    points = re.findall(rf"\({number},{number}\)", array.group(1)) if array else []
    if not points:
        sys.exit(f"calibrate_levels: no ELO_BY_LEVEL points in {path}")
    return [(float(level), float(elo)) for level, elo in points]


def calibrate(args):
    if args.recalibrate:
        plan = table_in_force(args.table)
    else:
        plan = [(level, None) for level in args.levels]
    guess, step = args.first_guess, args.guess_step
    rows, points = [], []
    for level, old_elo in plan:
        if old_elo is not None:
            guess = old_elo
        elif points:
            guess = points[-1][1] + step * (level - points[-1][0])
        # The level is fixed on Tropa's command line: `Skill Level` names only whole levels from 0.
        tropa = f"{args.engine} uci --level {level:g}"
        seed = args.seed_base + int(round(level))
        probe_anchor = clamp_anchor(guess)
        probe = play(args, f"level{level:g}-probe", tropa, [], probe_anchor, args.probe_games,
                     seed + 1000)
        # A probe that scores 0% or 100% says only "far": move the anchor 400 at most.
        anchor = clamp_anchor(probe_anchor + max(min(probe[5], 400), -400))
        result = play(args, f"level{level:g}", tropa, [], anchor, args.games, seed)
        elo, low, high = result[5], result[6], result[7]
        rating = anchor + elo
        points.append((level, rating))
        rows.append(row(f"{level:g}", anchor, result,
                        f" **{rating:.0f}** [{anchor + low:.0f}, {anchor + high:.0f}] |"))
        print(rows[-1], flush=True)
    print("\n| level | opponent | games | W–D–L | score | Elo difference [95%] | level's Elo [95%] |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\npub const ELO_BY_LEVEL: [(f64, f64); {len(points)}] = [")
    for level, rating in points:
        print(f"    ({level:.1f}, {rating:.1f}),")
    print("];")
    if any(b[1] <= a[1] for a, b in zip(points, points[1:])):
        print("warning: the ratings do not rise with the level; play more games or fewer levels")


def verify(args):
    rows = []
    for elo in args.verify:
        options = ["UCI_LimitStrength=true", f"UCI_Elo={elo}"]
        result = play(args, f"verify{elo}", args.engine, options, elo, args.games,
                      args.seed_base + elo)
        rows.append(row(str(elo), elo, result, f" {'yes' if abs(result[5]) <= 75 else 'no'} |"))
        print(rows[-1], flush=True)
    print("\n| Tropa's `UCI_Elo` | opponent | games | W–D–L | score | Elo difference [95%] | within ±75 |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="the Tropa binary")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--levels", type=number_list(float), help="levels to calibrate (-10 to 20), e.g. -6,0,4,8,12,16,20")
    mode.add_argument("--recalibrate", action="store_true",
                      help="the levels of the table in force, each guessed at its Elo there")
    mode.add_argument("--verify", type=number_list(int), help="UCI_Elo values to check, e.g. 1500,1800,2100")
    ap.add_argument("--table", default=TABLE,
                    help="the Rust source holding ELO_BY_LEVEL (for --recalibrate)")
    ap.add_argument("--out", required=True, help="folder for the logs and games")
    ap.add_argument("--games", type=int, default=100, help="games of each match (default 100)")
    ap.add_argument("--probe-games", type=int, default=20, help="games of each level's probe")
    ap.add_argument("--first-guess", type=float, default=1500, help="guessed Elo of the first level")
    ap.add_argument("--guess-step", type=float, default=40, help="guessed Elo a level adds")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed-base", type=int, default=300, help="match seed = this + level (or Elo)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--match", default=MATCH, help="the team's match runner")
    ap.add_argument("--openings", default=OPENINGS)
    args = ap.parse_args()
    for path, what in [(args.match, "match runner"), (args.openings, "openings"),
                       (args.engine, "engine"), (args.stockfish, "Stockfish")]:
        if not os.path.exists(path):
            sys.exit(f"calibrate_levels: no {what} at {path}")
    os.makedirs(args.out, exist_ok=True)
    if args.verify is not None:
        verify(args)
    else:
        calibrate(args)


if __name__ == "__main__":
    main()
