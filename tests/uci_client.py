#!/usr/bin/env python3
"""The UCI client and the strict checks shared by the UCI test scripts.

Design note: every UCI suite (tests/uci_conformance.py, uci_bad_input.py, uci_book.py,
uci_console.py, uci_syzygy.py) starts the engine, talks to it and checks what it writes through
this module, so that a line the engine writes is judged by one parser everywhere. Two clients
are used: python-chess's own engine client (`chess.engine.SimpleEngine`, started with
`[ENGINE]`), as a GUI would use it, and the thin line-level client `Raw` below for what a GUI
library hides: timings, the exact order of lines, bytes that are not UTF-8. Every line `Raw`
reads is checked: an `info` line must parse (with its `pv` legal from the searched position)
and every `bestmove` must be legal. `run` runs a suite's test functions under a watchdog and
prints the summary line (`N passed, M failed`) tests/uci_conformance.rs looks for.

The scripts are run as `python3 tests/SCRIPT.py ENGINE …` from any folder; each puts its own
folder on `sys.path` before importing this module. Exits with status 2 when python-chess is
missing.
"""
import os
import queue
import subprocess
import sys
import threading
import time

try:
    import chess
except ImportError:
    print("FAIL: python-chess is not installed (pip install chess); .ci/run installs it", flush=True)
    sys.exit(2)

ENGINE = None  # the engine binary, an absolute path (set by `run`)
TEST_LIMIT = 180  # seconds for one test function


class Failure(Exception):
    """A check that failed: the test fails with this message."""


def check(cond, message):
    """Fails the test with `message` unless `cond` holds."""
    if not cond:
        raise Failure(message)


# ---------------------------------------------------------------------------------------------
# Strict parsing of what the engine writes.

INT_FIELDS = {"depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time", "currmovenumber",
              "tbhits", "cpuload", "sbhits"}


def parse_info(line, board):
    """Parses an `info` line strictly; returns a dict. `board` is the searched position (for the
    legality of `pv` and `currmove`), or None to skip move checks."""
    words = line.split()
    check(words[0] == "info", f"not an info line: {line!r}")
    out, i = {}, 1
    while i < len(words):
        w = words[i]
        if w == "string":
            out["string"] = line.split(" string ", 1)[1] if " string " in line else ""
            break
        if w in INT_FIELDS:
            check(i + 1 < len(words), f"{w} without value: {line!r}")
            try:
                out[w] = int(words[i + 1])
            except ValueError:
                raise Failure(f"{w} value is not an integer: {line!r}")
            check(out[w] >= 0, f"negative {w}: {line!r}")
            i += 2
        elif w == "score":
            check(i + 2 < len(words) and words[i + 1] in ("cp", "mate"), f"bad score: {line!r}")
            try:
                out["score"] = (words[i + 1], int(words[i + 2]))
            except ValueError:
                raise Failure(f"bad score value: {line!r}")
            i += 3
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                out["bound"] = words[i]
                i += 1
        elif w == "wdl":
            try:
                out["wdl"] = tuple(int(x) for x in words[i + 1:i + 4])
            except ValueError:
                raise Failure(f"bad wdl: {line!r}")
            check(len(out["wdl"]) == 3 and min(out["wdl"]) >= 0 and sum(out["wdl"]) == 1000,
                  f"wdl must be three permille values summing to 1000: {line!r}")
            i += 4
        elif w == "currmove":
            check(i + 1 < len(words), f"currmove without move: {line!r}")
            if board is not None:
                move = chess.Move.from_uci(words[i + 1])
                check(board.is_legal(move), f"illegal currmove: {line!r}")
            i += 2
        elif w == "pv":
            moves = words[i + 1:]
            check(moves, f"empty pv: {line!r}")
            if board is not None:
                b = board.copy()
                for m in moves:
                    try:
                        move = b.parse_uci(m)
                    except ValueError:
                        raise Failure(f"illegal move {m} in pv: {line!r} (position {board.fen()})")
                    b.push(move)
            out["pv"] = moves
            break
        else:
            raise Failure(f"unknown info token {w!r}: {line!r}")
    if "hashfull" in out:
        check(out["hashfull"] <= 1000, f"hashfull over 1000: {line!r}")
    if "multipv" in out:
        check(out["multipv"] >= 1, f"multipv 0: {line!r}")
    return out


def parse_bestmove(line, board):
    """Returns the best move (None for a position without moves); fails when it is illegal."""
    words = line.split()
    check(words[0] == "bestmove" and len(words) in (2, 4), f"malformed bestmove line: {line!r}")
    if words[1] in ("0000", "(none)"):
        check(board.is_game_over(), f"no move in a position with legal moves: {line!r} {board.fen()}")
        return None
    try:
        move = board.parse_uci(words[1])
    except ValueError:
        raise Failure(f"illegal bestmove {words[1]} in {board.fen()}")
    if len(words) == 4:
        check(words[2] == "ponder", f"malformed bestmove line: {line!r}")
        after = board.copy()
        after.push(move)
        try:
            after.parse_uci(words[3])
        except ValueError:
            raise Failure(f"illegal ponder move {words[3]} after {words[1]} in {board.fen()}")
    return move


# ---------------------------------------------------------------------------------------------
# The line-level client.

class Raw:
    """Talks to the engine line by line. Every line is timestamped when read and checked."""

    def __init__(self, args=()):
        self.proc = subprocess.Popen([ENGINE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0)
        self.lines = queue.Queue()
        self.board = chess.Board()  # the position the next `go` searches (kept by the tests)
        self.searching = None       # the board of the running search
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr = []
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            t = time.monotonic()
            try:
                text = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                text = f"<not UTF-8: {raw!r}>"
            self.lines.put((t, text))
        self.lines.put((time.monotonic(), None))

    def _read_stderr(self):
        for raw in iter(self.proc.stderr.readline, b""):
            self.stderr.append(raw.decode("utf-8", "replace"))

    def send(self, text):
        data = text if isinstance(text, bytes) else text.encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def read(self, timeout):
        """Next line as (time, text); fails on end of output or timeout."""
        try:
            t, line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Failure(f"no output within {timeout}s")
        check(line is not None, f"engine exited (code {self.proc.poll()}); stderr: {''.join(self.stderr)[-2000:]}")
        check(not line.startswith("<not UTF-8"), f"engine wrote bytes that are not UTF-8: {line}")
        first = line.split(" ", 1)[0] if line else ""
        check(first in ("id", "option", "uciok", "readyok", "info", "bestmove"),
              f"unexpected output line {line!r}")
        if first == "info":
            parse_info(line, self.searching)
        return t, line

    def until(self, prefix, timeout=10.0, forbid=None):
        """Reads lines until one starts with `prefix`; returns (time, line, lines before)."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            check(left > 0, f"no {prefix!r} within {timeout}s; last lines: {seen[-5:]}")
            t, line = self.read(left)
            if forbid is not None:
                check(not line.startswith(forbid), f"unexpected {line!r} while waiting for {prefix!r}")
            if line.startswith(prefix):
                return t, line, seen
            seen.append(line)

    def quiet(self, seconds):
        """Lines written within `seconds`."""
        out, deadline = [], time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return out
            try:
                t, line = self.lines.get(timeout=left)
            except queue.Empty:
                return out
            check(line is not None, "engine exited")
            if line.startswith("info"):
                parse_info(line, self.searching)
            out.append(line)

    def sync(self):
        self.send("isready")
        return self.until("readyok")[2]

    def go(self, args, timeout=30.0):
        """`go ARGS` on self.board; returns (best move, info lines, seconds to bestmove)."""
        self.searching = self.board.copy()
        t0 = self.send(f"go {args}")
        t, line, seen = self.until("bestmove", timeout)
        move = parse_bestmove(line, self.searching)
        self.searching = None
        return move, [l for l in seen if l.startswith("info")], t - t0

    def position(self, board, moves=()):
        """Sends `position fen … moves …` and remembers the resulting board."""
        b = board.copy()
        for m in moves:
            b.push_uci(m)
        self.board = b
        text = f"position fen {board.fen()}"
        if moves:
            text += " moves " + " ".join(moves)
        self.send(text)

    def close(self, expect_code=0):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("engine did not exit within 10 s of quit")
        check(code == expect_code, f"exit code {code}; stderr: {''.join(self.stderr)[-2000:]}")
        check(not any("panicked" in l for l in self.stderr), f"panic: {''.join(self.stderr)}")



def run(engine, tests):
    """Runs the test functions against `engine`, each under a watchdog of TEST_LIMIT seconds;
    prints a line per test and the summary, and exits non-zero when one failed. A test returns
    a note for its line or raises (`Failure` for a failed check)."""
    global ENGINE
    ENGINE = os.path.abspath(engine)
    failed, passed = 0, 0
    for test in tests:
        t0 = time.monotonic()
        # A hang (a lost bestmove, a search that never ends) fails the run instead of
        # blocking it: python-chess waits without a time limit under a clock.
        watchdog = threading.Timer(TEST_LIMIT, lambda n=test.__name__: (
            print(f"FAIL {n}: no result within {TEST_LIMIT}s (engine hung?)", flush=True), os._exit(3)))
        watchdog.daemon = True
        watchdog.start()
        try:
            note = test()
            passed += 1
            print(f"ok   {test.__name__} ({time.monotonic() - t0:.1f}s): {note}", flush=True)
        except Failure as exc:
            failed += 1
            print(f"FAIL {test.__name__}: {exc}", flush=True)
        except Exception as exc:  # a client-side error (e.g. python-chess refusing a reply)
            failed += 1
            print(f"FAIL {test.__name__}: {type(exc).__name__}: {exc}", flush=True)
        watchdog.cancel()
    print(f"{passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)
