#!/usr/bin/env python3
"""Bad input over UCI, driven by python-chess as a real client.

Run by tests/uci_conformance.rs (`cargo test --release`) as

    python3 tests/uci_bad_input.py ENGINE

It uses the line-level client and the strict checks of tests/uci_client.py. Each entry of
the tables below (malformed FENs, illegal or malformed moves in `position`, bad `setoption` and
`go` arguments, garbage, over-long and non-UTF-8 lines) must get a clear `info string error: …`
line, leave the previous state as it was, and the engine must still play a legal move after it.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_client as u  # noqa: E402
from uci_client import Raw, check, parse_bestmove, parse_info  # noqa: E402

import chess  # noqa: E402

AFTER_E4 = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")

BAD_FENS = [
    ("too few fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
    ("only placement", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    ("too many fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 7"),
    ("bad piece letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
    ("bad piece letter (unicode)", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN♜ w KQkq - 0 1"),
    ("9 ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("7 ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("rank of 9 squares", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("rank of 7 squares", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("digit 0", "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("two white kings", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1"),
    ("no black king", "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
    ("no kings", "8/8/8/8/8/8/8/8 w - - 0 1"),
    ("kings next to each other", "8/8/8/3kK3/8/8/8/8 w - - 0 1"),
    ("pawn on the first rank", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1"),
    ("pawn on the eighth rank", "rnbqkbnp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1"),
    ("side not to move in check", "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1"),
    ("bad side to move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
    ("en passant on the wrong rank", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1"),
    ("en passant without the pawn", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1"),
    ("en passant square occupied", "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1"),
    ("en passant for the wrong side", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1"),
    ("en passant nonsense", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq z9 0 1"),
    ("castling without the rook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"),
    ("castling with the king moved", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1"),
    ("bad castling letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1"),
    ("halfmove not a number", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"),
    ("negative halfmove", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1"),
    ("fullmove 0", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0"),
    ("huge fullmove", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999"),
    ("too many pawns", "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("empty", ""),
    ("slashes only", "/////// w - - 0 1"),
]

BAD_POSITIONS = [
    ("illegal move", "position startpos moves e2e5"),
    ("illegal second move", "position startpos moves e2e4 e2e4"),
    ("malformed move", "position startpos moves e2e"),
    ("malformed move 2", "position startpos moves e2e4e5"),
    ("not a move", "position startpos moves hello"),
    ("null move", "position startpos moves 0000"),
    ("promotion to a king", "position fen 8/4P1k1/8/8/8/8/8/4K3 w - - 0 1 moves e7e8k"),
    ("promotion without a piece", "position fen 8/4P1k1/8/8/8/8/8/4K3 w - - 0 1 moves e7e8"),
    ("promotion of a knight", "position startpos moves g1f3q"),
    ("castling through check", "position fen r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1 moves e1g1"),
    ("move after mate", "position startpos moves f2f3 e7e5 g2g4 d8h4 e2e4"),
    ("words after startpos", "position startpos e2e4"),
    ("neither startpos nor fen", "position e2e4"),
    ("position alone", "position"),
    ("fen without a FEN", "position fen"),
    ("fen then moves only", "position fen moves e2e4"),
]

BAD_OPTIONS = [
    "setoption", "setoption name", "setoption name Hash", "setoption name Hash value",
    "setoption name Hash value 0", "setoption name Hash value -16", "setoption name Hash value 99999999",
    "setoption name Hash value 99999999999999999999999", "setoption name Hash value sixteen",
    "setoption name Threads value 0", "setoption name Threads value 100000", "setoption name MultiPV value 0",
    "setoption name Move Overhead value -1", "setoption name Contempt value 1000",
    "setoption name Ponder value maybe", "setoption name UCI_Chess960 value 1",
    "setoption name NoSuchOption value 1", "setoption Hash value 16",
    "setoption name ShowPlans value maybe", "setoption name PioneerGuide value 1",
    "setoption name OwnBook value perhaps", "setoption name BookDepth value 0",
    "setoption name BookDepth value 101", "setoption name BookLearning value yes",
    "setoption name BookSeed value -1", "setoption name UCI_AnalyseMode value 1",
]

# Bad `go` commands, sent after 1.e4, and the moves the answer must be among (None: any legal
# move). Each gets an error and still a legal `bestmove` (a GUI waits for one): the valid part
# is searched, and a search nothing valid limits gets a fallback time.
BAD_GO = [
    ("go depth", None), ("go depth x", None), ("go depth -1", None), ("go nodes -5", None),
    ("go movetime", None), ("go movetime abc", None),
    ("go wtime 99999999999999999999999 btime 1000", None), ("go searchmoves e2e5", None),
    ("go bogus 5", None), ("go movestogo -1 wtime 1000 btime 1000", None), ("go mate x", None),
    ("go searchmoves e7e5 zz99 depth 3", {"e7e5"}), ("go depth x searchmoves d7d5 g8f6", {"d7d5", "g8f6"}),
    ("go depth movetime 300", None), ("go searchmoves e2e4 depth 2", None), ("go nodes 5000 frobnicate", None),
    ("go infinite_typo", None), ("go \x01", None),
]

GARBAGE = [
    ("unknown command", b"hello"), ("typo", b"isreadyy"), ("punctuation", b"!@#$%^&*()"),
    ("control bytes", b"\x01\x02\x03\x1b[31m"), ("non-UTF-8", b"\xff\xfe\xfd position"),
    ("latin-1 bytes", b"position fen caf\xe9"), ("lone continuation", b"\x80\x80"),
]


def expect_error(e, text, label):
    """Sends a bad line; the engine must answer `info string error: …` and stay in sync."""
    e.send(text)
    e.send("isready")
    _, _, seen = e.until("readyok", 5)
    errors = [l for l in seen if l.startswith("info string error:")]
    check(errors, f"{label}: no 'info string error' for {text!r} (got {seen})")
    return errors[0]


def t_bad_input():
    e = Raw()
    e.send("uci")
    e.until("uciok")
    shown = []
    count = 0

    def still_plays(board, label):
        move, _, _ = e.go("depth 2", timeout=10)
        check(move is not None and move in board.legal_moves, f"after {label}: {move} from {board.fen()}")

    def rejected_after_e4(text, label):
        # Sent after 1.e4: answered with an error, and the engine still plays from 1.e4.
        nonlocal count
        e.position(chess.Board(), ["e2e4"])
        msg = expect_error(e, text, label)
        shown.append(f"{label}: {msg}")
        still_plays(AFTER_E4, label)
        count += 1
        return msg

    # FENs: the previous position (after 1.e4) is kept.
    for label, fen in BAD_FENS:
        msg = rejected_after_e4(f"position fen {fen}", label)
        check(len(msg) < 400, f"{label}: error message too long ({len(msg)})")
    for label, text in BAD_POSITIONS:
        rejected_after_e4(text, label)
    for text in BAD_OPTIONS:
        msg = expect_error(e, text, text)
        shown.append(f"{text}: {msg}")
        count += 1
    # The options keep their values: Hash is still 16 MB, one thread, one PV line. (The book
    # would answer the start position without a search: it is off for this one `go`.)
    e.send("setoption name OwnBook value false")
    e.position(chess.Board())
    _, infos, _ = e.go("depth 5")
    check({parse_info(l, None).get("multipv") for l in infos} == {1}, "MultiPV changed by a bad setoption")
    e.send("setoption name OwnBook value true")
    for text, allowed in BAD_GO:
        e.position(chess.Board(), ["e2e4"])
        e.searching = AFTER_E4.copy()
        t0 = e.send(text)
        t, line, seen = e.until("bestmove", 5)
        move = parse_bestmove(line, AFTER_E4)
        check(move is not None, f"{text}: {line}")
        check(allowed is None or move.uci() in allowed, f"{text}: {move} not among {allowed}")
        errors = [l for l in seen if l.startswith("info string error:")]
        check(errors, f"{text}: no 'info string error' (got {seen})")
        check(t - t0 <= 3.0, f"{text}: bestmove after {t - t0:.2f}s")
        shown.append(f"{text}: {errors[0]} -> {line}")
        count += 1
    for label, data in GARBAGE:
        msg = rejected_after_e4(data, label)
        check(all(c.isprintable() for c in msg), f"{label}: control characters echoed: {msg!r}")
    # Over-long lines (2 MB of garbage; 2 MB of moves), then a NUL byte in a line.
    for label, data in (("2 MB line", b"x" * (2 << 20)), ("2 MB of moves", b"position startpos moves " + b"e2e4 " * 400000),
                        ("NUL byte", b"position startpos moves e2e4\x00")):
        rejected_after_e4(data, label)
    # Negative and huge clock values: a warning, and a legal move (quickly for a 0 clock).
    for text, limit in (("go wtime -100 btime -100", 1.0), ("go wtime -1 btime 5000 winc -10 binc -10", 1.0),
                        ("go movetime -50", 1.0), ("go wtime 0 btime 0", 1.0)):
        e.position(chess.Board())
        e.searching = e.board.copy()
        t0 = e.send(text)
        t, line, seen = e.until("bestmove", 5)
        check(any(l.startswith("info string error:") for l in seen) or "0 btime 0" in text,
              f"{text}: no warning")
        check(parse_bestmove(line, e.board) is not None and t - t0 <= limit, f"{text}: {line} after {t - t0:.2f}s")
        count += 1
    # A huge but valid clock: the engine searches (as it may) and stops when told. (Without
    # the book, which would answer the start position at once.)
    e.send("setoption name OwnBook value false")
    for text in ("go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807",
                 "go movetime 9223372036854775807", "go nodes 18446744073709551615 depth 999999",
                 "go wtime 9223372036854775807 btime 1 movestogo 4294967295"):
        e.position(chess.Board())
        e.searching = e.board.copy()
        e.send(text)
        e.quiet(0.2)
        e.send("stop")
        _, line, _ = e.until("bestmove", 2)
        check(parse_bestmove(line, e.board) is not None, f"{text}: {line}")
        count += 1
    # Commands at the wrong time: stop and ponderhit with no search; go while an infinite
    # search runs stops it, and both searches answer.
    e.send("stop")
    e.send("ponderhit")
    e.sync()
    # More hash than the machine has (within the declared range): an error, not an abort.
    total_kb = int(next(l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")))
    if total_kb < 60 << 20:
        msg = expect_error(e, "setoption name Hash value 65536", "Hash 64 GB")
        shown.append(f"Hash 64 GB on a {total_kb >> 20} GB machine: {msg}")
        e.position(chess.Board(), ["e2e4"])
        still_plays(AFTER_E4, "Hash 65536")
        count += 1
    e.searching = e.board.copy()
    e.send("go infinite")
    e.until("info", 5)
    e.send("go depth 1")
    for which in ("the infinite search", "the go sent during it"):
        _, line, _ = e.until("bestmove", 5)
        check(parse_bestmove(line, e.board) is not None, f"go while searching, {which}: {line}")
    e.sync()
    shown.append("go while searching: both searches answered")
    e.position(chess.Board(), ["e2e4"])
    still_plays(AFTER_E4, "everything")
    e.close()
    return f"{count} bad inputs answered; messages:\n    " + "\n    ".join(shown)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    u.run(sys.argv[1], [t_bad_input])


if __name__ == "__main__":
    main()
