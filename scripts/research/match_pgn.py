"""The games of match PGNs, plain or xz-compressed: one reader for the scripts that study
match.py's games (clock_use.py, drawn_ahead.py, loss_lag.py)."""

import io
import lzma

import chess.pgn


def games(path):
    """Yields the games of a PGN file, plain or xz-compressed; undecodable bytes are replaced
    rather than fatal, as an engine name or a comment may hold any byte."""
    raw = lzma.open(path) if path.endswith(".xz") else open(path, "rb")
    with io.TextIOWrapper(raw, errors="replace") as text:
        while (game := chess.pgn.read_game(text)) is not None:
            yield game
