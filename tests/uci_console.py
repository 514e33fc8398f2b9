#!/usr/bin/env python3
"""GUI information and console commands over UCI, driven by python-chess.

    python3 tests/uci_console.py ENGINE

`UCI_ShowWDL` (a `wdl` triple in every scored `info` line, only when asked, rising with the
score), `currmove`/`currmovenumber` (legal, numbered, only after the first second), `d` (the
board and the FEN), `eval` (terms and total) and `go perft N` (counts checked against
python-chess). The client's strict parser checks every line.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_client as u  # noqa: E402
from uci_client import Raw, check, parse_info  # noqa: E402

import chess  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def t_show_wdl():
    e = Raw()
    e.send("uci")
    _, _, seen = e.until("uciok")
    check("option name UCI_ShowWDL type check default false" in seen, "UCI_ShowWDL not declared")
    e.send("setoption name OwnBook value false")
    e.position(chess.Board())
    _, infos, _ = e.go("depth 4")
    check(all("wdl" not in parse_info(l, None) for l in infos), "wdl shown without UCI_ShowWDL")
    e.send("setoption name UCI_ShowWDL value true")
    notes = []
    wins = []
    for fen in ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1",
                "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "6k1/8/8/8/8/8/8/Q5K1 w - - 0 1"):
        e.position(chess.Board(fen))
        _, infos, _ = e.go("depth 5")
        last = parse_info(infos[-1], None)
        check("wdl" in last, f"no wdl with UCI_ShowWDL: {infos[-1]}")
        wins.append(last["wdl"][0])
        notes.append(f"{last['score']} -> wdl {' '.join(map(str, last['wdl']))}")
    check(wins[0] < wins[1] < wins[2] <= wins[3], f"win chances do not rise with material: {wins}")
    e.close()
    return "; ".join(notes)


def t_currmove():
    e = Raw()
    e.send("uci")
    e.until("uciok")
    e.send("setoption name OwnBook value false")
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    e.position(board)
    e.searching = board.copy()
    t0 = e.send("go movetime 2500")
    first, numbers = None, []
    while True:
        t, line = e.read(10)
        if line.startswith("bestmove"):
            break
        info = parse_info(line, board)  # checks that each currmove is legal
        if "currmovenumber" in info:
            first = first if first is not None else t - t0
            numbers.append(info["currmovenumber"])
            check(" currmove " in line and 1 <= info["currmovenumber"] <= board.legal_moves.count(), line)
    e.searching = None
    check(numbers, "no currmove in a 2.5 s search")
    check(first >= 0.95, f"currmove after {first:.2f} s, before the first second")
    e.close()
    return f"{len(numbers)} currmove lines, the first after {first:.2f} s"


def t_console_commands():
    e = Raw()
    e.send("uci")
    e.until("uciok")
    notes = []
    for fen, depth in ((chess.STARTING_FEN, 4), (KIWIPETE, 3), ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4)):
        board = chess.Board(fen)
        e.position(board)
        e.send(f"go perft {depth}")
        seen = e.sync()
        counts = {}
        for line in seen:
            words = line.split()
            if len(words) == 4 and words[2].endswith(":"):
                counts[words[2][:-1]] = int(words[3])
        expected = {}
        for move in board.legal_moves:
            board.push(move)
            expected[move.uci()] = perft(board, depth - 1)
            board.pop()
        check(counts == expected, f"go perft {depth} on {fen}: {counts} != {expected}")
        total = [l for l in seen if "Nodes searched:" in l]
        check(total and f"Nodes searched: {sum(expected.values())} " in total[0], f"{total}")
        notes.append(total[0].split("string ")[1])
    for bad in ("go perft", "go perft 0", "go perft x", "go perft 99", "go perft 3 4"):
        e.send(bad)
        seen = e.sync()
        check(any(l.startswith("info string error: go perft") for l in seen), f"{bad}: {seen}")
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    e.position(board)
    e.send("d")
    seen = e.sync()
    check(f"info string fen {board.fen()}" in seen, f"d: no fen line in {seen}")
    rows = [l[len("info string "):] for l in seen if l.startswith("info string ") and l[12:13].isdigit()]
    check(len(rows) == 8, f"d: {len(rows)} board rows")
    for rank, row in zip(range(7, -1, -1), rows):
        cells = [c.strip() or None for c in row.split("|")[1:9]]
        want = [board.piece_at(chess.square(f, rank)) for f in range(8)]
        check(cells == [p.symbol() if p else None for p in want], f"d: rank {rank + 1}: {row}")
    e.send("eval")
    seen = e.sync()
    check(any(l.startswith("info string material") for l in seen), f"eval: {seen}")
    check(any(l.startswith("info string total ") for l in seen), f"eval: {seen}")
    # Still a UCI engine afterwards.
    move, _, _ = e.go("depth 3")
    check(move in board.legal_moves, f"after the console commands: {move}")
    e.close()
    return "; ".join(notes)


def t_strength():
    """Skill Level and UCI_LimitStrength/UCI_Elo: declared, fewer nodes, a legal move."""
    e = Raw()
    e.send("uci")
    _, _, seen = e.until("uciok")
    for decl in ("option name Skill Level type spin default 20 min 0 max 20",
                 "option name UCI_LimitStrength type check default false"):
        check(decl in seen, f"not declared: {decl}")
    # UCI_Elo's range is the calibrated one (ELO_BY_LEVEL), so only its shape is fixed here.
    elo_decl = [l.split() for l in seen if l.startswith("option name UCI_Elo type spin default 1500 min ")]
    check(len(elo_decl) == 1, f"UCI_Elo not declared as a spin with default 1500: {seen}")
    elo_min, elo_max = int(elo_decl[0][-3]), int(elo_decl[0][-1])
    check(elo_min < 1500 < elo_max, f"UCI_Elo range {elo_min}..{elo_max}")
    e.send("setoption name OwnBook value false")
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    notes = []

    def nodes_for(*options):
        for o in options:
            e.send(f"setoption name {o}")
        e.send("ucinewgame")
        e.position(board)
        move, infos, _ = e.go("depth 7")
        check(move in board.legal_moves, f"{options}: {move}")
        return max(parse_info(l, None).get("nodes", 0) for l in infos)

    full = nodes_for("Skill Level value 20")
    weak = nodes_for("Skill Level value 0")
    middle = nodes_for("Skill Level value 12")
    elo = nodes_for("Skill Level value 20", "UCI_LimitStrength value true", f"UCI_Elo value {elo_min}")
    off = nodes_for("UCI_LimitStrength value false")
    # Level 12 searches four lines, so it may use more nodes than one full-strength line.
    check(weak < middle and weak < full and elo < full and off == full, f"nodes {weak} {middle} {full} {elo} {off}")
    notes.append(f"depth 7 nodes: skill 0 {weak}, skill 12 {middle}, full {full}, Elo {elo_min} {elo}")
    e.close()
    return "; ".join(notes)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    u.run(sys.argv[1], [t_show_wdl, t_currmove, t_console_commands, t_strength])


if __name__ == "__main__":
    main()
