"""Drives `tropa play` through a pseudo-terminal, as a person at a terminal would.

Usage: play_pty.py ENGINE DIR. Each test prints "ok NAME" or raises; the Rust test
(tests/play_cli.rs) checks that every test passed.
"""
import os
import pty
import select
import subprocess
import sys
import time

ENGINE, DIR = sys.argv[1], sys.argv[2]


class Terminal:
    """`tropa play ARGS` on a pty; `expect` waits for text, `send` types a line."""

    def __init__(self, *args):
        master, slave = pty.openpty()
        self.proc = subprocess.Popen([ENGINE, "play", *args], stdin=slave, stdout=slave,
                                     stderr=slave, close_fds=True)
        os.close(slave)
        self.master = master
        self.seen = ""
        self.mark = 0

    def expect(self, text, timeout=30):
        """Waits until `text` appears after the last match; returns what came before it."""
        deadline = time.time() + timeout
        while True:
            found = self.seen.find(text, self.mark)
            if found >= 0:
                before = self.seen[self.mark:found]
                self.mark = found + len(text)
                return before
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError("no %r in %r" % (text, self.seen[self.mark:]))
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError("ended without %r: %r" % (text, self.seen[self.mark:]))
                self.seen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def send(self, line):
        os.write(self.master, (line + "\n").encode())

    def finish(self):
        code = self.proc.wait(timeout=30)
        os.close(self.master)
        assert code == 0, "exit code %d: %r" % (code, self.seen[self.mark:])


def test_short_game_with_an_illegal_move_undo_hint_and_flip():
    # White mates in two: 1. Kb6 Kb8 (forced) 2. Rh8#.
    save = os.path.join(DIR, "mate.pgn")
    t = Terminal("--fen", "k7/8/2K5/8/8/8/8/7R w - - 0 1", "--level", "3", "--save", save)
    board = t.expect("your move: ")
    assert "6 | . . K . . . . . |" in board, board
    assert "    a b c d e f g h" in board, board
    t.send("Kd8")
    assert "'Kd8': illegal move" in t.expect("your move: ")
    t.send("Kb6")
    assert "Tropa plays 1... Kb8" in t.expect("your move: ")
    t.send("undo")
    board = t.expect("your move: ")
    assert "took back" in board and "8 | k . . . . . . . |" in board, board
    t.send("c6b6")  # UCI as well as SAN
    assert "Tropa plays 1... Kb8" in t.expect("your move: ")
    t.send("hint")
    assert "hint: Rh8# (mate in 1)" in t.expect("your move: ")
    t.send("flip")
    assert "    h g f e d c b a" in t.expect("your move: ")
    t.send("Rh8")
    t.expect("checkmate: White wins (1-0)")
    t.expect("game saved to " + save)
    t.finish()
    text = open(save).read()
    assert '[Result "1-0"]' in text and '[FEN "k7/8/2K5/8/8/8/8/7R w - - 0 1"]' in text, text
    assert "1. Kb6 Kb8 2. Rh8# 1-0" in text, text
    print("ok short game")


def test_clock_black_and_resignation():
    save = os.path.join(DIR, "resign.pgn")
    t = Terminal("--color", "black", "--clock", "1+1", "--level", "2", "--save", save)
    before = t.expect("your move: ")
    assert "Tropa plays 1. " in before, before
    assert "    h g f e d c b a" in before, "Black sits below: %r" % before
    assert "White 1:0" in before and "Black 1:00" in before, before
    t.send("nonsense")
    assert "'nonsense': malformed move" in t.expect("your move: ")
    t.send("resign")
    t.expect("Black resigns (1-0)")
    t.finish()
    text = open(save).read()
    assert '[Black "You"]' in text and '[TimeControl "60+1"]' in text, text
    assert text.rstrip().endswith("1-0"), text
    print("ok resignation")


def test_end_of_input_adjourns():
    save = os.path.join(DIR, "quit.pgn")
    t = Terminal("--level", "1", "--save", save)
    t.expect("your move: ")
    t.send("e4")
    t.expect("your move: ")
    os.write(t.master, b"\x04")  # Ctrl-D: the end of the input
    t.expect("the game is left unfinished (*)")
    t.finish()
    assert open(save).read().rstrip().endswith("*")
    print("ok adjourned")


def test_draw_offers():
    # Tropa, mated in two, takes a draw; Tropa, a queen up, does not.
    save = os.path.join(DIR, "draw.pgn")
    t = Terminal("--fen", "k7/8/2K5/8/8/8/8/7R w - - 0 1", "--level", "3", "--save", save)
    t.expect("your move: ")
    t.send("draw")
    t.expect("draw agreed (1/2-1/2)")
    t.finish()
    assert open(save).read().rstrip().endswith("1/2-1/2")
    t = Terminal("--fen", "k7/8/8/8/8/8/8/K6q w - - 0 1", "--level", "3", "--save", save)
    t.expect("your move: ")
    t.send("draw")
    assert "Tropa declines the draw" in t.expect("your move: ")
    t.send("quit")
    t.expect("the game is left unfinished (*)")
    t.finish()
    print("ok draw offers")


for name, test in list(globals().items()):
    if name.startswith("test_"):
        test()
