#!/usr/bin/env python3
"""Time-safety benchmark: does Tropa ever lose on time?

Plays Tropa against a reference engine at very short time controls and reports, for each part,
the time forfeits (the goal is 0), other failures, and the smallest clock Tropa was left with
after a move (before the increment), as measured by the client. Three parts:

  1. `--games` games at 1+0.01 s with ../shared/tools/match.py (default 1000);
  2. `--fast-games` games at 0.1+0.001 s with match.py (default 100);
  3. `--mtg-games` games at 40 moves in 1 s, repeating (`go … movestogo N`), with the small
     python-chess driver below, since match.py has no movestogo (default 100).

The machine load (1-minute load average, sampled every 10 s) is reported with each part, since
a forfeit on a loaded machine is still a forfeit. Needs python-chess (pip install chess).

Example (the reference is Stockfish at Skill Level 10, close to Tropa's strength so the games
are long and reach low clocks):
  python3 scripts/time_safety.py --engine target/release/tropa --concurrency 2
"""
import argparse
import os
import random
import re
import shlex
import statistics
import subprocess
import sys
import threading
import time
import concurrent.futures as cf

import chess
import chess.engine
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(HERE, "..", "..", "shared", "tools", "match.py")
OPENINGS = os.path.join(HERE, "..", "..", "shared", "data", "openings", "8moves_v3_sample1000.pgn")


class LoadSampler:
    """Samples the 1-minute load average every `period` seconds in a background thread."""

    def __init__(self, period=10.0):
        self.samples, self.period = [], period
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.done.is_set():
            self.samples.append(os.getloadavg()[0])
            self.done.wait(self.period)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()

    def summary(self):
        if not self.samples:
            return "load n/a"
        return (f"load avg(1 min) median {statistics.median(self.samples):.2f} "
                f"max {max(self.samples):.2f} over {len(self.samples)} samples "
                f"on {os.cpu_count()} cores")


STATS = re.compile(r"games (\d+)\s+W (\d+)\s+D (\d+)\s+L (\d+).*forfeits\(time\) A (\d+) B (\d+)\s+"
                   r"failures A (\d+) B (\d+)")


def parse_stats(line):
    """Counts and min clocks from a match.py progress or FINAL line."""
    m = STATS.search(line)
    if m is None:
        return None
    keys = ("games", "w", "d", "l", "time_a", "time_b", "fail_a", "fail_b")
    out = dict(zip(keys, map(int, m.groups())))
    clocks = dict(re.findall(r"(\S+) (-?[\d.]+)s", line.split("min-clock", 1)[1])) if "min-clock" in line else {}
    out["min_a"] = min((float(v) for k, v in clocks.items() if k.startswith(args_a_name)), default=float("inf"))
    return out


args_a_name = "tropa"


def run_match(args, tc, games, label):
    """match.py in chunks of --chunk games (each with its own seed and a time limit, so that a
    hung reference engine costs one chunk, not the run); returns Tropa's forfeits + failures."""
    total = {"games": 0, "w": 0, "d": 0, "l": 0, "time_a": 0, "time_b": 0, "fail_a": 0,
             "fail_b": 0, "min_a": float("inf")}
    hung = 0
    base, _, inc = tc.partition("+")
    per_game_limit = 2 * (float(base) + 400 * float(inc or 0)) + 30
    with LoadSampler() as load:
        t0 = time.monotonic()
        chunk_no = 0
        while total["games"] < games:
            n = min(args.chunk, games - total["games"])
            cmd = [sys.executable, args.match, "--a", args.engine, "--a-name", args_a_name,
                   "--b", args.ref, "--b-name", "reference", "--tc", tc, "--games", str(n),
                   "--openings", args.openings, "--concurrency", str(args.concurrency), "--shuffle",
                   "--seed", str(args.seed + chunk_no)]
            for opt in args.engine_opt:
                cmd += ["--a-opt", opt]
            for opt in args.ref_opt:
                cmd += ["--b-opt", opt]
            if args.pgn:
                cmd += ["--pgn", f"{args.pgn}.{label}.{chunk_no}.pgn"]
            if chunk_no == 0:
                print(f"# {label}: {shlex.join(cmd)}  (seed +1 per chunk)", flush=True)
            limit = per_game_limit * n / args.concurrency + 60
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
                stdout, stderr = proc.stdout, proc.stderr
            except subprocess.TimeoutExpired as exc:
                hung += 1
                stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
                stderr = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
                print(f"# {label} chunk {chunk_no}: no result after {limit:.0f}s (a hung engine); "
                      f"counting the games it finished", flush=True)
            lines = [l for l in stdout.splitlines() if parse_stats(l)]
            for line in stderr.splitlines():
                print(f"#   {line}", flush=True)
            chunk_no += 1
            if not lines:
                if hung and chunk_no > games // max(args.chunk, 1) + 5:
                    break
                continue
            st = parse_stats(lines[-1])
            for k in total:
                total[k] = min(total[k], st[k]) if k == "min_a" else total[k] + st[k]
            print(f"#   {label} chunk {chunk_no - 1}: {lines[-1]}", flush=True)
        wall = time.monotonic() - t0
    print(f"{label}: tc {tc}  games {total['games']}  W {total['w']} D {total['d']} L {total['l']}  "
          f"Tropa time forfeits {total['time_a']}  Tropa failures {total['fail_a']}  "
          f"reference forfeits {total['time_b']} failures {total['fail_b']}  hung chunks {hung}  "
          f"Tropa min clock {total['min_a']:.3f}s  wall {wall:.0f}s  {load.summary()}", flush=True)
    return total["time_a"] + total["fail_a"]


def play_movestogo_game(engines, fen, moves_per_control, control_seconds, margin, stats, lock):
    """One game under a repeating control of `moves_per_control` moves in `control_seconds`."""
    board = chess.Board(fen)
    clocks = {chess.WHITE: control_seconds, chess.BLACK: control_seconds}
    moves_made = {chess.WHITE: 0, chess.BLACK: 0}
    game_id = object()
    while board.outcome(claim_draw=True) is None and board.ply() < 400:
        side = board.turn
        name, engine = engines[side]
        to_go = moves_per_control - moves_made[side] % moves_per_control
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   remaining_moves=to_go)
        t0 = time.monotonic()
        try:
            played = engine.play(board, limit, game=game_id)
        except Exception as exc:  # a crash or protocol error is a failure, reported
            with lock:
                stats[name]["failures"] += 1
                print(f"# {name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            raise
        clocks[side] -= time.monotonic() - t0
        with lock:
            stats[name]["min_clock"] = min(stats[name]["min_clock"], clocks[side])
        if clocks[side] < -margin:
            with lock:
                stats[name]["forfeits"] += 1
            return
        if played.move is None or played.move not in board.legal_moves:
            with lock:
                stats[name]["failures"] += 1
            return
        board.push(played.move)
        moves_made[side] += 1
        if moves_made[side] % moves_per_control == 0:
            clocks[side] += control_seconds


def run_movestogo(args):
    """Part 3: repeating `moves/seconds` control with movestogo, our own python-chess driver."""
    moves, seconds = args.mtg.split("/")
    moves, seconds = int(moves), float(seconds)
    openings = []
    with open(args.openings, encoding="utf-8", errors="replace") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            openings.append(game.end().board().fen())
    random.Random(args.seed).shuffle(openings)
    stats = {n: {"forfeits": 0, "failures": 0, "min_clock": float("inf")} for n in ("tropa", "ref")}
    lock = threading.Lock()
    local = threading.local()
    engines_all = []

    def engines():
        if not hasattr(local, "pair"):
            tropa = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine), stderr=subprocess.DEVNULL)
            ref = chess.engine.SimpleEngine.popen_uci(shlex.split(args.ref), stderr=subprocess.DEVNULL)
            tropa.configure(dict(o.split("=", 1) for o in args.engine_opt))
            ref.configure(dict(o.split("=", 1) for o in args.ref_opt))
            local.pair = (tropa, ref)
            with lock:
                engines_all.extend(local.pair)
        return local.pair

    def one(i):
        tropa, ref = engines()
        players = {chess.WHITE: ("tropa", tropa), chess.BLACK: ("ref", ref)}
        if i % 2:
            players = {chess.WHITE: ("ref", ref), chess.BLACK: ("tropa", tropa)}
        try:
            play_movestogo_game(players, openings[(i // 2) % len(openings)], moves, seconds,
                                args.margin, stats, lock)
        except Exception:
            pass

    print(f"# movestogo: {args.mtg} repeating, {args.mtg_games} games, own driver", flush=True)
    with LoadSampler() as load:
        t0 = time.monotonic()
        with cf.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            list(pool.map(one, range(args.mtg_games)))
        wall = time.monotonic() - t0
    for e in engines_all:
        try:
            e.quit()
        except Exception:
            pass
    t = stats["tropa"]
    print(f"movestogo: tc {args.mtg} repeating  games {args.mtg_games}  Tropa time forfeits "
          f"{t['forfeits']}  Tropa failures {t['failures']}  reference forfeits "
          f"{stats['ref']['forfeits']}  Tropa min clock {t['min_clock']:.3f}s  wall {wall:.0f}s  "
          f"{load.summary()}", flush=True)
    return t["forfeits"] + t["failures"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(HERE, "..", "target", "release", "tropa"))
    ap.add_argument("--engine-opt", action="append", default=[], help="NAME=VALUE for Tropa")
    ap.add_argument("--ref", default="/usr/games/stockfish")
    ap.add_argument("--ref-opt", action="append", default=None,
                    help="NAME=VALUE for the reference (default: Skill Level=10, Hash=16, Threads=1)")
    ap.add_argument("--games", type=int, default=1000, help="games at --tc")
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--fast-games", type=int, default=100, help="games at --fast-tc")
    ap.add_argument("--fast-tc", default="0.1+0.001")
    ap.add_argument("--mtg-games", type=int, default=100, help="games at --mtg (movestogo)")
    ap.add_argument("--mtg", default="40/1", help="MOVES/SECONDS, repeating")
    ap.add_argument("--margin", type=float, default=0.05, help="seconds a clock may dip below 0 (as match.py)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=100, help="games per match.py run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--openings", default=OPENINGS)
    ap.add_argument("--match", default=MATCH)
    ap.add_argument("--pgn", help="prefix for PGN files of the games")
    args = ap.parse_args()
    if args.ref_opt is None:
        args.ref_opt = ["Skill Level=10", "Hash=16", "Threads=1"]
    print(f"# engine {args.engine} vs {args.ref} {args.ref_opt}; {os.cpu_count()} cores", flush=True)
    bad = 0
    if args.games:
        bad += run_match(args, args.tc, args.games, "main")
    if args.fast_games:
        bad += run_match(args, args.fast_tc, args.fast_games, "fast")
    if args.mtg_games:
        bad += run_movestogo(args)
    print(f"TOTAL Tropa time forfeits and failures: {bad}", flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
