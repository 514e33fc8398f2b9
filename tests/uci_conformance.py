#!/usr/bin/env python3
"""UCI conformance tests for Tropa, driven by python-chess as a real client.

Run by tests/uci_conformance.rs (`cargo test --release`) as

    python3 tests/uci_conformance.py ENGINE [SECTION...]

Section: protocol (handshake, every `go` form, stop, ponder, isready, ucinewgame, MultiPV,
PIONEER's options, Chess960, quit, threads and hash). The clients (python-chess's and the
line-level `Raw`), the strict checks of every line the engine writes and the runner are in
tests/uci_client.py, shared with the other UCI suites. Exits non-zero on the first failure, and
when python-chess is missing.
"""
import logging
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_client as u  # noqa: E402
from uci_client import Failure, Raw, check, parse_bestmove, parse_info  # noqa: E402

import chess  # noqa: E402
import chess.engine  # noqa: E402


def t_handshake():
    e = Raw()
    e.send("uci")
    _, _, seen = e.until("uciok")
    check(any(l.startswith("id name Tropa") for l in seen), "no 'id name'")
    check(any(l.startswith("id author") for l in seen), "no 'id author'")
    options = {}
    for l in seen:
        if l.startswith("option"):
            check(" name " in l and " type " in l, f"malformed option line {l!r}")
            name = l.split(" name ", 1)[1].split(" type ", 1)[0]
            options[name] = l.split(" type ", 1)[1]
    for name in ("Hash", "Threads", "MultiPV", "Move Overhead", "Ponder", "UCI_Chess960", "Clear Hash",
                 "Contempt"):
        check(name in options, f"option {name} not declared")
    for name, decl in options.items():
        kind = decl.split()[0]
        check(kind in ("spin", "check", "button", "string", "combo"), f"{name}: bad type {decl!r}")
        if kind == "spin":
            w = decl.split()
            d, lo, hi = int(w[w.index("default") + 1]), int(w[w.index("min") + 1]), int(w[w.index("max") + 1])
            check(lo <= d <= hi, f"{name}: default outside its range")
    # PIONEER's options: off unless asked for.
    for name in ("ShowPlans", "PioneerGuide"):
        check(options.get(name) == "check default false", f"{name}: {options.get(name)!r}")
    overhead = options["Move Overhead"].split()
    check(int(overhead[overhead.index("default") + 1]) >= 20, "Move Overhead default below 20 ms")
    e.sync()
    e.close()
    # python-chess reads the same declarations.
    with chess.engine.SimpleEngine.popen_uci([u.ENGINE]) as eng:
        check(eng.id.get("name", "").startswith("Tropa"), "python-chess sees no name")
        check(eng.options["Hash"].type == "spin" and eng.options["Clear Hash"].type == "button",
              "python-chess option types")
    return "options " + ", ".join(options)


def same_fen(engine_fen, client_fen):
    """Equal FENs, where the engine keeps the half-move clock at most 100 (the 50-move rule)."""
    a, b = engine_fen.split(), client_fen.split()
    return a[:4] == b[:4] and a[5] == b[5] and int(a[4]) == min(int(b[4]), 100)


def t_positions():
    e = Raw()
    rng = random.Random(7)
    # A long game: up to 600 plies of random legal moves, then startpos and fen forms.
    board = chess.Board()
    moves = []
    while len(moves) < 600 and not board.is_game_over(claim_draw=False):
        m = rng.choice(list(board.legal_moves))
        moves.append(m.uci())
        board.push(m)
    e.send("position startpos moves " + " ".join(moves))
    e.send("d")
    _, fen_line, _ = e.until("info string fen")
    check(same_fen(fen_line.split(" fen ", 1)[1], board.fen()), f"after {len(moves)} plies: {fen_line} != {board.fen()}")
    e.board = board
    if not board.is_game_over():
        e.go("depth 3")
    # From a FEN with a long move list, halfway.
    mid = chess.Board()
    for m in moves[:100]:
        mid.push_uci(m)
    e.position(mid, moves[100:400])
    e.send("d")
    _, fen_line, _ = e.until("info string fen")
    check(same_fen(fen_line.split(" fen ", 1)[1], e.board.fen()), "position fen … moves … mismatch")
    # A FEN whose half-move clock is past 100 is accepted (as 100).
    late = chess.Board("4k3/8/8/8/8/8/8/4K2R w K - 150 200")
    e.position(late)
    e.send("d")
    _, fen_line, _ = e.until("info string fen")
    check(same_fen(fen_line.split(" fen ", 1)[1], late.fen()), f"half-move clock 150: {fen_line}")
    if not e.board.is_game_over():
        e.go("depth 3")
    # `moves` with nothing after it, and extra spaces and tabs.
    e.send("position  startpos   moves  ")
    e.send("position\tstartpos\tmoves\te2e4")
    e.send("d")
    _, fen_line, _ = e.until("info string fen")
    check(" b KQkq " in fen_line, f"tabs: {fen_line}")
    # Game-over positions: checkmate and stalemate answer without a move.
    for fen in ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"):
        e.position(chess.Board(fen))
        move, _, _ = e.go("depth 3")
        check(move is None, f"a move in a finished game {fen}")
    e.sync()
    e.close()
    return f"{len(moves)}-ply game replayed"


def t_go_forms():
    e = Raw()
    e.send("uci")
    e.until("uciok")
    # Searches only: the book would answer from the start position at once (tests/uci_book.py).
    e.send("setoption name OwnBook value false")
    notes = []
    middle = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    e.position(middle)
    # depth: the last iteration reported is the one asked for.
    _, infos, _ = e.go("depth 5")
    depths = [parse_info(l, None).get("depth") for l in infos]
    check(max(d for d in depths if d) == 5, f"depth 5 reached depth {max(depths)}")
    # nodes: stops near the limit.
    _, infos, _ = e.go("nodes 20000")
    nodes = max(parse_info(l, None).get("nodes", 0) for l in infos)
    check(nodes <= 20000 + 2048, f"nodes 20000 searched {nodes}")
    # movetime: not much longer than asked, not absurdly shorter.
    _, _, took = e.go("movetime 400")
    check(0.3 <= took <= 0.4 + 0.25, f"movetime 400 took {took:.3f}s (Move Overhead 50 ms)")
    notes.append(f"movetime 400 -> {took * 1000:.0f} ms")
    # clock forms, both colours, with and without increments and movestogo. Each limit is the
    # hard limit `TimeManager::from_clock` allows for that clock (Move Overhead 50 ms: 0.22, 0.36,
    # 0.80, 2.23 and 0.04 s) plus a margin for start-up and lag.
    for args, limit in (("wtime 2000 btime 2000", 0.5), ("wtime 2000 btime 2000 winc 50 binc 50", 0.6),
                        ("wtime 1000 btime 1000 movestogo 1", 0.9), ("wtime 30000 btime 30000 movestogo 40", 2.5),
                        ("btime 500 wtime 500", 0.3)):
        for board in (middle, chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3")):
            e.position(board)
            _, _, took = e.go(args)
            check(took <= limit, f"go {args} took {took:.3f}s (limit {limit})")
    # mate: finds the mate and says so.
    e.position(chess.Board("k7/8/2K5/8/8/8/8/6Q1 w - - 0 1"))
    _, infos, _ = e.go("mate 2")
    last = parse_info(infos[-1], None)
    check(last.get("score") == ("mate", 2), f"go mate 2: {infos[-1]}")
    # searchmoves: the answer is one of them.
    e.position(chess.Board())
    for only in (["a2a3"], ["g1f3", "b1c3"], ["h2h4", "a2a4", "b2b3"]):
        move, _, _ = e.go("depth 4 searchmoves " + " ".join(only))
        check(move.uci() in only, f"searchmoves {only}: {move}")
    move, _, _ = e.go("searchmoves a2a3 depth 3")
    check(move.uci() == "a2a3", "searchmoves before depth")
    # infinite: no bestmove until stop.
    e.searching = e.board.copy()
    e.send("go infinite")
    extra = [l for l in e.quiet(0.5) if l.startswith("bestmove")]
    check(not extra, "bestmove during go infinite before stop")
    e.send("stop")
    _, line, _ = e.until("bestmove", 2)
    parse_bestmove(line, e.board)
    # A bare `go` is a search too; it is stopped.
    e.searching = e.board.copy()
    e.send("go")
    e.quiet(0.2)
    e.send("stop")
    _, line, _ = e.until("bestmove", 2)
    parse_bestmove(line, e.board)
    # `go` sent right after each bestmove, many times (regression: it was refused).
    t0 = time.monotonic()
    for i in range(200):
        e.go("depth 1", timeout=5)
    notes.append(f"200 x go depth 1 in {time.monotonic() - t0:.2f}s")
    e.sync()
    e.close()
    return "; ".join(notes)


def t_stop_latency():
    """`stop` during `go infinite`: time from sending stop to reading bestmove, 50 trials."""
    e = Raw()
    rng = random.Random(3)
    positions = [chess.Board(), chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
                 chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
                 chess.Board("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")]
    lat, ready = [], []
    for i in range(50):
        e.position(positions[i % len(positions)])
        e.searching = e.board.copy()
        e.send("go infinite")
        e.until("info", 5)
        time.sleep(rng.uniform(0.02, 0.3))
        # Reference: the round trip of `isready` during the same search, i.e. what the pipes
        # and the scheduler of this (possibly busy) machine cost without any engine work.
        t0 = e.send("isready")
        t, _, _ = e.until("readyok", 5, forbid="bestmove")
        ready.append((t - t0) * 1000)
        t0 = e.send("stop")
        t, line, _ = e.until("bestmove", 5)
        parse_bestmove(line, e.board)
        lat.append((t - t0) * 1000)
    e.close()
    lat.sort()
    med, p90, worst = statistics.median(lat), lat[int(0.9 * len(lat))], lat[-1]
    ready_med = statistics.median(ready)
    # Within 10 ms of the machine's own round trip (which is well under 1 ms when it is idle).
    check(med <= 10 + ready_med, f"median stop latency {med:.2f} ms over 10 ms + isready {ready_med:.2f} ms")
    check(worst <= 500 + max(ready), f"a stop took {worst:.1f} ms")
    return (f"stop->bestmove over {len(lat)} trials: median {med:.2f} ms, p90 {p90:.2f} ms, "
            f"max {worst:.2f} ms; isready round trip in the same searches median {ready_med:.2f} ms, "
            f"max {max(ready):.2f} ms; load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def t_ponder():
    e = Raw()
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    e.send("setoption name Ponder value true")
    # ponder then ponderhit: no bestmove while pondering, then one within the clock budget.
    e.position(board)
    e.searching = board.copy()
    e.send("go ponder wtime 3000 btime 3000 winc 0 binc 0")
    early = [l for l in e.quiet(0.6) if l.startswith("bestmove")]
    check(not early, f"bestmove while pondering: {early}")
    t0 = e.send("ponderhit")
    t, line, _ = e.until("bestmove", 3)
    parse_bestmove(line, board)
    check(t - t0 <= 1.5, f"after ponderhit the move took {t - t0:.2f}s with 3 s on the clock")
    # ponder then stop: bestmove at once.
    e.position(board)
    e.searching = board.copy()
    e.send("go ponder wtime 3000 btime 3000")
    e.quiet(0.3)
    t0 = e.send("stop")
    t, line, _ = e.until("bestmove", 2)
    parse_bestmove(line, board)
    check(t - t0 <= 0.1, f"stop during ponder took {(t - t0) * 1000:.0f} ms")
    # A ponder search that finishes by itself (mate found) still waits for ponderhit.
    mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1")
    e.position(mate)
    e.searching = mate.copy()
    e.send("go ponder depth 3")
    early = [l for l in e.quiet(0.4) if l.startswith("bestmove")]
    check(not early, "bestmove before ponderhit after a finished ponder search")
    e.send("ponderhit")
    _, line, _ = e.until("bestmove", 2)
    check(parse_bestmove(line, mate).uci() == "e1e8", line)
    e.close()
    # python-chess's own ponder cycle over a few moves (it sends go ponder and ponderhit/stop).
    # (python-chess sets the Ponder option itself.)
    with chess.engine.SimpleEngine.popen_uci([u.ENGINE]) as eng:
        b = chess.Board()
        for _ in range(12):
            r = eng.play(b, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05),
                         ponder=True)
            check(r.move in b.legal_moves, f"python-chess ponder game: illegal {r.move}")
            b.push(r.move)
            if r.ponder is not None and b.is_legal(r.ponder):
                b.push(r.ponder)  # ponderhit on the next call
            elif not b.is_game_over():
                b.push(next(iter(b.legal_moves)))
            if b.is_game_over():
                break
    return "ponderhit and stop"


def t_isready_while_searching():
    e = Raw()
    e.searching = e.board.copy()
    e.send("go infinite")
    e.until("info", 5)
    worst = 0.0
    for _ in range(20):
        t0 = e.send("isready")
        t, _, _ = e.until("readyok", 2, forbid="bestmove")
        worst = max(worst, t - t0)
        time.sleep(0.01)
    e.send("stop")
    _, line, _ = e.until("bestmove", 2)
    parse_bestmove(line, e.board)
    e.close()
    check(worst < 0.1, f"isready while searching took {worst * 1000:.0f} ms")
    return f"readyok while searching within {worst * 1000:.1f} ms (worst of 20)"


def node_count(e, fen, depth):
    e.position(chess.Board(fen))
    _, infos, _ = e.go(f"depth {depth}")
    return parse_info(infos[-1], None)["nodes"]


def t_ucinewgame():
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    fresh = Raw()
    first = node_count(fresh, fen, 8)
    fresh.close()
    e = Raw()
    node_count(e, fen, 8)
    warm = node_count(e, fen, 8)  # the table and histories remember the first search
    check(warm != first, "test cannot tell: a repeated search costs the same as a fresh one")
    e.send("ucinewgame")
    cleared = node_count(e, fen, 8)
    check(cleared == first, f"after ucinewgame {cleared} nodes, a fresh engine {first}")
    node_count(e, fen, 8)
    e.send("setoption name Clear Hash")
    check(node_count(e, fen, 8) == first, "Clear Hash does not clear")
    e.close()
    return f"fresh {first} nodes, warm {warm}, after ucinewgame {cleared}"


def t_multipv():
    e = Raw()
    e.send("setoption name MultiPV value 4")
    e.position(chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"))
    _, infos, _ = e.go("depth 7")
    parsed = [parse_info(l, None) for l in infos]
    last = [p for p in parsed if p.get("depth") == 7 and "bound" not in p]
    check(sorted(p["multipv"] for p in last) == [1, 2, 3, 4], f"depth 7 lines: {[p.get('multipv') for p in last]}")
    last.sort(key=lambda p: p["multipv"])
    firsts = [p["pv"][0] for p in last]
    check(len(set(firsts)) == 4, f"MultiPV first moves not distinct: {firsts}")
    scores = [p["score"][1] for p in last]
    check(all(p["score"][0] == "cp" for p in last) and scores == sorted(scores, reverse=True),
          f"MultiPV scores not ordered: {scores}")
    # More lines than legal moves: as many lines as moves.
    e.position(chess.Board("7k/8/8/8/8/8/8/K7 w - - 0 1"))
    _, infos, _ = e.go("depth 4")
    lines = {parse_info(l, None)["multipv"] for l in infos if "depth 4 " in l}
    check(lines == {1, 2, 3}, f"3 legal moves, MultiPV 4: lines {lines}")
    e.close()
    with chess.engine.SimpleEngine.popen_uci([u.ENGINE]) as eng:
        infos = eng.analyse(chess.Board(), chess.engine.Limit(depth=6), multipv=3)
        check(len(infos) == 3 and len({i["pv"][0] for i in infos}) == 3, "python-chess MultiPV 3")
    return f"MultiPV 4 firsts {firsts} scores {scores}"


def t_pioneer_options():
    """ShowPlans writes `info string plan …` before the search; PioneerGuide keeps the protocol."""
    reti = chess.Board("7K/8/k1P5/7p/8/8/8/8 w - - 0 1")
    e = Raw()
    e.send("setoption name ShowPlans value true")
    e.send("setoption name PioneerGuide value true")
    e.position(reti)
    move, infos, _ = e.go("depth 8")
    plans = [l for l in infos if l.startswith("info string plan ")]
    check(plans, f"ShowPlans on: no plan lines (got {infos[:5]})")
    check(infos.index(plans[-1]) < min(i for i, l in enumerate(infos) if " depth " in l),
          "plan lines after the search's info lines")
    check(any("K h8–g7–f6–e5" in l for l in plans), f"Réti: no king route in {plans}")
    check(move is not None and move in reti.legal_moves, f"bestmove {move}")
    e.send("setoption name ShowPlans value false")
    e.position(reti)
    _, infos, _ = e.go("depth 4")
    check(not any(l.startswith("info string plan") for l in infos), "ShowPlans off: plan lines")
    e.close()
    with chess.engine.SimpleEngine.popen_uci([u.ENGINE]) as eng:
        eng.configure({"ShowPlans": True, "PioneerGuide": True})
        info = eng.analyse(chess.Board(), chess.engine.Limit(depth=6))
        check("pv" in info and info["pv"][0] in chess.Board().legal_moves, "python-chess with PIONEER on")
    return f"{len(plans)} plan lines, bestmove {move}"


def t_chess960():
    e = Raw()
    e.send("setoption name UCI_Chess960 value true")
    # King e1, rooks b1 and g1: O-O is e1g1 (king takes rook g1), O-O-O is e1b1.
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    board = chess.Board(fen, chess960=True)
    for castle, king, rook in (("e1g1", chess.G1, chess.F1), ("e1b1", chess.C1, chess.D1)):
        e.position(board)
        move, _, _ = e.go(f"depth 3 searchmoves {castle}")
        check(move.uci() == castle and board.is_castling(move), f"960 castling sent as {move}")
        after = board.copy()
        after.push(move)
        check(after.piece_at(king) == chess.Piece(chess.KING, chess.WHITE) and
              after.piece_at(rook) == chess.Piece(chess.ROOK, chess.WHITE), "castling result")
        # Accepted back in `position … moves`, and Black castles the same way.
        e.position(board, [castle])
        e.send("d")
        _, line, _ = e.until("info string fen")
        check(chess.Board(line.split(" fen ", 1)[1], chess960=True).board_fen() == after.board_fen(),
              f"after {castle}: {line}")
        black = "e8g8" if castle == "e1g1" else "e8b8"
        e.position(board, [castle, black])
        e.go("depth 2")
    # Adjacent king and rook (king b1, rook a1) and the king already on its castled square.
    for fen, castle in (("rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w AGag - 0 1", "b1a1"),
                        ("rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w AGag - 0 1", "b1g1"),
                        ("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w BHbh - 0 1", "g1h1")):
        b = chess.Board(fen, chess960=True)
        e.position(b)
        move, _, _ = e.go(f"depth 2 searchmoves {castle}")
        check(move.uci() == castle and b.is_castling(move), f"{fen}: {castle} came back as {move}")
    # In standard chess castling is king-two-squares.
    e.send("setoption name UCI_Chess960 value false")
    e.position(chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"))
    for castle in ("e1g1", "e1c1"):
        move, _, _ = e.go(f"depth 2 searchmoves {castle}")
        check(move.uci() == castle, f"standard castling came back as {move}")
    e.close()
    # python-chess plays a few Chess960 games' openings with the engine.
    # (python-chess sets UCI_Chess960 itself from board.chess960.)
    with chess.engine.SimpleEngine.popen_uci([u.ENGINE]) as eng:
        for n in (0, 518, 959):
            b = chess.Board.from_chess960_pos(n)
            for _ in range(30):
                r = eng.play(b, chess.engine.Limit(depth=3))
                check(r.move in b.legal_moves, f"960 #{n}: illegal {r.move}")
                b.push(r.move)
                if b.is_game_over():
                    break
    return "king-takes-rook both ways"


def t_quit_during_search():
    for setup in ("", "setoption name Threads value 4", "setoption name Ponder value true"):
        e = Raw()
        if setup:
            e.send(setup)
        e.send("go ponder wtime 1000 btime 1000" if "Ponder" in setup else "go infinite")
        e.until("info", 5)
        t0 = time.monotonic()
        e.send("quit")
        try:
            code = e.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            e.proc.kill()
            raise Failure(f"no exit within 2 s of quit during a search ({setup or 'default'})")
        check(code == 0, f"exit code {code} after quit during search")
        check(time.monotonic() - t0 < 1.0, "quit during search was slow")
    # End of input during an infinite search also ends the process.
    e = Raw()
    e.send("go infinite")
    e.until("info", 5)
    e.proc.stdin.close()
    try:
        code = e.proc.wait(timeout=3)
    except subprocess.TimeoutExpired:
        e.proc.kill()
        raise Failure("engine did not exit at end of input during go infinite")
    check(code == 0, f"exit code {code} at end of input")
    return "quit and end of input during search"


def t_threads_and_hash():
    """Threads 1–8 and Hash from 1 MB to 1024 MB changed between searches; hashfull sane."""
    e = Raw()
    notes = []
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    for threads, hash_mb in ((1, 1), (2, 1024), (4, 16), (8, 1), (1, 256), (2, 64), (8, 1024), (1, 1)):
        e.send(f"setoption name Threads value {threads}")
        e.send(f"setoption name Hash value {hash_mb}")
        e.position(chess.Board(fen))
        _, infos, _ = e.go("nodes 400000", timeout=60)
        full = [parse_info(l, None)["hashfull"] for l in infos if " hashfull " in l]
        check(full, "no hashfull")
        if hash_mb == 1 and threads == 1:
            # 400k nodes in a 1 MB table (65536 entries) fill most of it.
            check(full[-1] >= 500, f"1 MB after 400k nodes: hashfull {full[-1]}")
        if hash_mb == 1024:
            check(full[-1] <= 50, f"1024 MB after 400k nodes: hashfull {full[-1]}")
        notes.append(f"T{threads}/H{hash_mb}:{full[-1]}")
        e.sync()
    # A game's worth of searches with 4 threads, stopped at random.
    e.send("setoption name Threads value 4")
    e.send("setoption name Hash value 32")
    rng = random.Random(5)
    b = chess.Board()
    for _ in range(20):
        e.board = b.copy()
        e.send("position startpos moves " + " ".join(m.uci() for m in b.move_stack) if b.move_stack else "position startpos")
        if rng.random() < 0.5:
            move, _, _ = e.go("movetime 50")
        else:
            e.searching = b.copy()
            e.send("go infinite")
            time.sleep(rng.uniform(0.0, 0.05))
            e.send("stop")
            _, line, _ = e.until("bestmove", 2)
            move = parse_bestmove(line, b)
        b.push(move)
        if b.is_game_over():
            break
    e.sync()
    e.close()
    return "hashfull after 400k nodes " + " ".join(notes)


def t_python_chess_game():
    """A short game through python-chess's play(), as a GUI would, with info on every move."""
    errors = []

    class Catch(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.WARNING:
                errors.append(record.getMessage())

    handler = Catch()
    logging.getLogger("chess.engine").addHandler(handler)
    try:
        with chess.engine.SimpleEngine.popen_uci([u.ENGINE]) as eng:
            b = chess.Board()
            while not b.is_game_over() and b.ply() < 80:
                r = eng.play(b, chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.02,
                                                   black_inc=0.02), info=chess.engine.INFO_ALL)
                check(r.move in b.legal_moves, f"illegal {r.move}")
                b.push(r.move)
    finally:
        logging.getLogger("chess.engine").removeHandler(handler)
    check(not errors, f"python-chess reported: {errors[:3]}")
    return f"{b.ply()} plies"


SECTIONS = {
    "protocol": [t_handshake, t_positions, t_go_forms, t_stop_latency, t_ponder, t_isready_while_searching,
                 t_ucinewgame, t_multipv, t_pioneer_options, t_chess960, t_quit_during_search, t_threads_and_hash,
                 t_python_chess_game],
}


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    names = sys.argv[2:] or list(SECTIONS)
    u.run(sys.argv[1], [test for name in names for test in SECTIONS[name]])


if __name__ == "__main__":
    main()
