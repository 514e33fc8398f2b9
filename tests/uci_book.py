#!/usr/bin/env python3
"""The opening book over UCI, driven by python-chess as a real client.

Run by tests/uci_conformance.rs (`cargo test --release`) as

    python3 tests/uci_book.py ENGINE

It uses the line-level client and the strict checks of tests/uci_client.py (every `info`
line parsed, every `bestmove` legal) and checks what the book adds to the protocol: a book move
is answered at once with an `info string book` line when playing; analysis (`go infinite`, a
bare `go`, `UCI_AnalyseMode`, `MultiPV` above 1) always searches; a fixed `BookSeed` repeats its
choices; an opponent who leaves the book hands over to the search; a broken `BookFile` is
reported by name and the engine plays on without a book.
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_client as u  # noqa: E402
from uci_client import Raw, check, parse_bestmove, parse_info  # noqa: E402

import chess  # noqa: E402
import chess.engine  # noqa: E402

FIRST_MOVES = {"e2e4", "d2d4", "c2c4", "g2g3", "g1f3"}
CLOCK = "wtime 10000 btime 10000 winc 100 binc 100"


def strings(infos):
    return [parse_info(l, None).get("string", "") for l in infos]


def searched(infos):
    """Did the engine search (an `info depth …` line) rather than answer from the book?"""
    return any(parse_info(l, None).get("depth") for l in infos)


def t_book_play():
    e = Raw()
    e.send("uci")
    e.until("uciok")
    e.position(chess.Board())
    notes = []
    for args in (CLOCK, "movetime 1000", "depth 8", "nodes 100000"):
        move, infos, took = e.go(args)
        check(move.uci() in FIRST_MOVES, f"go {args}: {move} is not one of the five trees")
        check(any(s.startswith("book ") for s in strings(infos)) and not searched(infos),
              f"go {args} from the start was not a book answer: {infos}")
        # A book answer costs no search: far below the time asked for, even on a loaded machine.
        check(took < 0.5, f"book answer to go {args} took {took:.3f}s")
        notes.append(f"{args.split()[0]} {move} {took * 1000:.1f} ms")
    # The same seed repeats the same choices along a line; both sides are answered.
    lines = []
    for _ in range(2):
        e.send("setoption name BookSeed value 12345")
        played = []
        for _ in range(6):
            e.position(chess.Board(), played)
            move, infos, _ = e.go(CLOCK)
            if not any(s.startswith("book ") for s in strings(infos)):
                break
            played.append(move.uci())
        lines.append(played)
    check(lines[0] == lines[1] and len(lines[0]) >= 4, f"BookSeed 12345 gave {lines}")
    # The opponent leaves the book: the search takes over (as Black after 1.b3, and as White
    # after 1.e4 h5, a reply no game in the default book has).
    for moves in (["b2b3"], ["e2e4", "h7h5"]):
        e.position(chess.Board(), moves)
        move, infos, _ = e.go("depth 4")
        check(searched(infos) and not any(s.startswith("book ") for s in strings(infos)),
              f"after {moves} the book still answered: {infos}")
    # OwnBook false: always the search.
    e.send("setoption name OwnBook value false")
    e.position(chess.Board())
    _, infos, _ = e.go("depth 4")
    check(searched(infos), "OwnBook false did not search")
    e.sync()
    e.close()
    return f"{'; '.join(notes)}; seeded line {' '.join(lines[0])}"


def t_book_analysis():
    e = Raw()
    e.position(chess.Board())
    # go infinite and a bare go search until stop.
    for args in ("infinite", ""):
        e.searching = e.board.copy()
        e.send(f"go {args}".strip())
        _, first, _ = e.until("info", 5, forbid="bestmove")
        check("string book" not in first, f"go {args or '(bare)'} answered from the book")
        e.send("stop")
        _, line, _ = e.until("bestmove", 5)
        parse_bestmove(line, e.board)
    # UCI_AnalyseMode and MultiPV > 1 are analysis.
    for on, off in (("setoption name UCI_AnalyseMode value true", "setoption name UCI_AnalyseMode value false"),
                    ("setoption name MultiPV value 2", "setoption name MultiPV value 1")):
        e.send(on)
        _, infos, _ = e.go("depth 4")
        check(searched(infos) and not any(s.startswith("book ") for s in strings(infos)),
              f"{on}: the book answered")
        e.send(off)
        _, infos, _ = e.go("depth 4")
        check(any(s.startswith("book ") for s in strings(infos)), f"{off}: no book answer")
    e.close()
    # python-chess: analyse (which sets UCI_AnalyseMode) gets lines; play gets a book move.
    with chess.engine.SimpleEngine.popen_uci([u.ENGINE]) as eng:
        info = eng.analyse(chess.Board(), chess.engine.Limit(depth=6))
        check(info.get("depth") == 6 and info.get("pv"), f"python-chess analyse: {info}")
        t0 = time.monotonic()
        r = eng.play(chess.Board(), chess.engine.Limit(white_clock=10, black_clock=10), info=chess.engine.INFO_ALL)
        took = time.monotonic() - t0
        check(r.move.uci() in FIRST_MOVES, f"python-chess play from the start: {r.move}")
        check(str(r.info.get("string", "")).startswith("book "), f"python-chess play: no book line {r.info}")
    return f"analysis searched; python-chess play answered {r.move} from the book in {took * 1000:.0f} ms"


def t_book_files():
    e = Raw()
    notes = []
    with tempfile.TemporaryDirectory() as folder:
        broken = {
            "garbage.tbk": b"this is not a book at all\n" * 4,
            "empty.tbk": b"",
        }
        for name, data in broken.items():
            path = os.path.join(folder, name)
            with open(path, "wb") as f:
                f.write(data)
        for name in (*broken, "missing.tbk"):
            path = os.path.join(folder, name)
            e.send(f"setoption name BookFile value {path}")
            e.send("isready")
            _, _, seen = e.until("readyok")
            errors = [l for l in seen if l.startswith("info string error")]
            check(len(errors) == 1 and name in errors[0] and "without a book" in errors[0],
                  f"BookFile {name}: {seen}")
            notes.append(errors[0][len("info string error: "):])
            # No book, and the engine still plays (a search from the start position).
            e.position(chess.Board())
            move, infos, _ = e.go("depth 3")
            check(move is not None and searched(infos), f"after BookFile {name}: {infos}")
            e.position(chess.Board(), [move.uci()])
            move, _, _ = e.go("depth 3")
            check(move is not None, f"after BookFile {name}: no second move")
        # The files are left as they were; an empty BookFile is the built-in book again.
        for name, data in broken.items():
            with open(os.path.join(folder, name), "rb") as f:
                check(f.read() == data, f"{name} was changed")
        check(not os.path.exists(os.path.join(folder, "missing.tbk")), "missing.tbk was created")
        e.send("setoption name BookFile value <empty>")
        e.position(chess.Board())
        _, infos, _ = e.go(CLOCK)
        check(any(s.startswith("book ") for s in strings(infos)), "the built-in book did not come back")
    e.sync()
    e.close()
    return "errors: " + " | ".join(notes)


def polyglot_entry(board, uci, weight):
    """One 16-byte Polyglot entry (key, move, weight, learn), big-endian."""
    import chess.polyglot
    move = chess.Move.from_uci(uci)
    raw = (chess.square_file(move.to_square) | chess.square_rank(move.to_square) << 3
           | chess.square_file(move.from_square) << 6 | chess.square_rank(move.from_square) << 9
           | ({None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}[move.promotion] << 12))
    key = chess.polyglot.zobrist_hash(board)
    return key.to_bytes(8, "big") + raw.to_bytes(2, "big") + weight.to_bytes(2, "big") + bytes(4)


def t_polyglot_book():
    """A Polyglot `.bin` as BookFile: probed in place, moves drawn by weight (the weights of
    Debian's gnuchess book at the start: 1.e4 12,135, 1.g4 4), BookDepth respected, and the
    answer checked against python-chess's own reader."""
    import chess.polyglot
    start = chess.Board()
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")
    weights = {"e2e4": 12135, "d2d4": 6000, "g1f3": 2000, "g2g4": 4, "h2h4": 0}
    entries = [polyglot_entry(start, m, w) for m, w in weights.items()]
    entries += [polyglot_entry(after_e4, "c7c5", 30), polyglot_entry(after_e4, "e7e5", 10)]
    notes = []
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "book.bin")
        with open(path, "wb") as f:
            f.write(b"".join(sorted(entries)))
        with chess.polyglot.open_reader(path) as reader:
            check({e.move.uci(): e.weight for e in reader.find_all(start)} == {m: w for m, w in weights.items() if w},
                  "the test book does not read back in python-chess")
        e = Raw()
        e.send(f"setoption name BookFile value {path}")
        e.send("setoption name BookSeed value 12345")
        seen = e.sync()
        check(any("Polyglot, 7 entries" in l for l in seen), f"no Polyglot load line: {seen}")
        counts = {}
        probes = 400
        for _ in range(probes):
            e.position(start)
            move, infos, took = e.go(CLOCK)
            check(any("Polyglot book" in s for s in strings(infos)) and not searched(infos), f"not from the book: {infos}")
            counts[move.uci()] = counts.get(move.uci(), 0) + 1
        total = sum(w for w in weights.values())
        for m in ("e2e4", "d2d4", "g1f3"):
            share, expected = counts.get(m, 0) / probes, weights[m] / total
            check(abs(share - expected) < 0.08, f"{m}: {share:.3f} of the probes, weight share {expected:.3f}")
        check(counts.get("g2g4", 0) <= 3 and "h2h4" not in counts, f"rare or zero-weight moves played: {counts}")
        notes.append(f"{probes} probes: {dict(sorted(counts.items(), key=lambda kv: -kv[1]))}")
        # Black's reply from the book too (any starting position its keys cover).
        e.position(after_e4)
        move, infos, _ = e.go(CLOCK)
        check(move.uci() in ("c7c5", "e7e5") and not searched(infos), f"after 1.e4: {move}")
        # BookDepth 1: after one ply the search takes over.
        e.send("setoption name BookDepth value 1")
        e.position(start, ["e2e4"])
        move, infos, _ = e.go("depth 3")
        check(searched(infos), "BookDepth 1 still answered from the book at ply 1")
        e.close()
    return "; ".join(notes)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    u.run(sys.argv[1], [t_book_play, t_book_analysis, t_book_files, t_polyglot_book])


if __name__ == "__main__":
    main()
