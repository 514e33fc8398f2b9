#!/usr/bin/env python3
"""Syzygy tablebases over UCI, driven by python-chess, on the tables in tests/data/syzygy (the
3-4-piece tables the tests probe).

    python3 tests/uci_syzygy.py ENGINE [--defender COMMAND] [--movetime SECONDS]

Checks that `SyzygyPath` reports what it loaded and names a bad folder or file with an error
(and the engine plays on), that `info` carries `tbhits`, and plays won endings out: the engine
with the tables attacks, the defender (the engine itself by default, or any UCI engine given
with --defender, which gets the same tables) resists; each must end in mate before the 50-move
rule could end it.
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_client as u  # noqa: E402
from uci_client import Raw, check, parse_info  # noqa: E402

import chess  # noqa: E402
import chess.engine  # noqa: E402

TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "syzygy")
ARGS = None

# Won endings for White (the DTZ from python-chess's prober).
WINS = [
    ("KQvKR, DTZ 57", "7K/4r3/4k3/Q7/8/8/8/8 w - - 0 1"),
    ("KRvK, DTZ 31", "1K6/8/5R2/8/3k4/8/8/8 w - - 0 1"),
    ("KPvK, DTZ 15", "8/8/8/8/8/4P1k1/8/3K4 w - - 0 1"),
    ("KQvKR, 30 plies already gone", "7K/4r3/4k3/Q7/8/8/8/8 w - - 30 40"),
]


def t_options_and_errors():
    e = Raw()
    e.send("uci")
    e.until("uciok")
    e.send(f"setoption name SyzygyPath value {TABLES}")
    seen = e.sync()
    check(any("Syzygy: 24 files, up to 4 pieces" in l for l in seen), f"no load report: {seen}")
    notes = []
    with tempfile.TemporaryDirectory() as bad, tempfile.TemporaryDirectory() as empty:
        shutil.copy(os.path.join(TABLES, "KRvK.rtbw"), bad)
        with open(os.path.join(bad, "KQvK.rtbw"), "wb") as f:
            f.write(b"not a table" * 10)
        for path, expect in (("/nonexistent/syzygy", "cannot read the folder"), (bad, "not a Syzygy table"),
                             (empty, "no Syzygy tables")):
            e.send(f"setoption name SyzygyPath value {path}")
            seen = e.sync()
            errors = [l for l in seen if l.startswith("info string error:")]
            check(errors and expect in errors[0], f"SyzygyPath {path}: {seen}")
            notes.append(errors[0])
    # The tables loaded first are kept: the search still reports table hits.
    board = chess.Board("7K/4r3/4k3/Q7/8/6P1/8/8 w - - 0 1")
    e.position(board)
    _, infos, _ = e.go("depth 9")
    hits = max(parse_info(l, None).get("tbhits", 0) for l in infos)
    check(hits > 0, f"no tbhits: {infos[-1]}")
    notes.append(f"KQPvKR depth 9: {infos[-1].split(' pv ')[0]}")
    # Switched off, no hits.
    e.send("setoption name SyzygyPath value <empty>")
    _, infos, _ = e.go("depth 9")
    check(all(parse_info(l, None).get("tbhits", 0) == 0 for l in infos), "tbhits without tables")
    e.close()
    return "; ".join(notes)


def play_out(name, fen):
    attacker = chess.engine.SimpleEngine.popen_uci([u.ENGINE])
    defender = chess.engine.SimpleEngine.popen_uci(ARGS.defender.split()) if ARGS.defender else attacker
    try:
        for engine in {attacker, defender}:
            engine.configure({"SyzygyPath": TABLES})
        board = chess.Board(fen)
        limit = chess.engine.Limit(time=ARGS.movetime)
        start_clock = board.halfmove_clock
        hits, plies = 0, 0
        while not board.is_game_over(claim_draw=False) and board.halfmove_clock < 100:
            engine = attacker if board.turn == chess.WHITE else defender
            result = engine.play(board, limit, info=chess.engine.INFO_BASIC)
            if engine is attacker:
                hits = max(hits, result.info.get("tbhits", 0))
            board.push(result.move)
            plies += 1
        check(board.is_checkmate() and board.turn == chess.BLACK,
              f"{name}: {board.result()} after {plies} plies, clock {board.halfmove_clock}: {board.fen()}")
        return f"{name}: mate in {(plies + 1) // 2} moves (clock started at {start_clock}, max tbhits/move {hits})"
    finally:
        attacker.quit()
        if defender is not attacker:
            defender.quit()


def t_wins_converted():
    return "; ".join(play_out(name, fen) for name, fen in WINS)


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("--defender", help="UCI engine command for the defending side (default: ENGINE)")
    parser.add_argument("--movetime", type=float, default=0.02, help="seconds per move (default 0.02)")
    ARGS = parser.parse_args()
    check(os.path.isdir(TABLES), f"the Syzygy tables are not in {TABLES}")
    u.run(ARGS.engine, [t_options_and_errors, t_wins_converted])


if __name__ == "__main__":
    main()
