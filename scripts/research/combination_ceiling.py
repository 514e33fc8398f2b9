#!/usr/bin/env python3
"""How deep the material of a combination set's wins lies: the ceiling of a proof that counts
material.

    python3 scripts/research/combination_ceiling.py [--epd tests/data/combinations.epd]
        [--stockfish /usr/games/stockfish] [--depth 16] [--study STUDY_OUTPUT.txt]

A study proof (`tropa study`) calls a line won where the zone model sees the attacker 300 cp
(`study::WIN`) ahead in material, or mated on the board, and the judge agrees.  A combination
whose gain is positional, or comes back only after many moves, cannot be proven within a
small tree whatever the attacker's moves.  This script asks Stockfish (Threads=1, Hash=64,
ucinewgame before every record, the record's EPD as the position) for its line from every
record and reads off:

  * mate: the mate's length in plies, where the score is a mate for the side to move;
  * ahead from ply K: the first position of the line, K plies in and the side to move of the
    record to move again, from which that side's material lead over the start (P 100, N 320,
    B 330, R 500, Q 950, Tropa's values) stays at 300 or more at every such position to the
    line's end (after the opponent's reply, so that an exchange half made does not count);
    "never" when it does not happen within the line.  A proof's leaf at an odd horizon H has
    the opponent to move and counts its best capture, so a lead from ply H + 1 is within
    reach of a proof to H plies.

The figure is a ceiling, not a prediction: Stockfish's line is one line, the proof must answer
every defence, and a line's end may leave an exchange unfinished (a conservative reading).
With --study, each record is also marked with the result of a `tropa study --epd` run's line
("proven-key": proven with the key move first, "proven": with another first move).
"""

import argparse
import collections
import re
import sys

import chess
import chess.engine

VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 950}
WIN = 300
# The buckets of the summary, in its order.
MATE_SHORT, MATE_LONG, AHEAD_6, AHEAD_10, AHEAD_LATER, NEVER = BUCKETS = [
    "mate within 7 plies",
    "mate in more than 7 plies",
    "300 ahead by ply 6 (a 5-ply proof's reach)",
    "300 ahead at ply 8-10 (a 9-ply proof's reach)",
    "300 ahead after ply 10",
    "never 300 ahead in the line",
]


def material(board, side):
    """The material of `side` less the opponent's, kings aside."""
    total = 0
    for piece in board.piece_map().values():
        if piece.piece_type != chess.KING:
            total += VALUES[piece.piece_type] * (1 if piece.color == side else -1)
    return total


def ahead_from(board, pv):
    """The ply of the first position of `pv` with the side to move of `board` to move again
    from which its lead over the start stays >= WIN at every such position, or None."""
    side = board.turn
    start = material(board, side)
    after = board.copy()
    leads = []
    for ply, move in enumerate(pv, 1):
        after.push(move)
        if after.turn == side:
            leads.append((ply, material(after, side) - start))
    for i, (ply, _) in enumerate(leads):
        if all(lead >= WIN for _, lead in leads[i:]):
            return ply
    return None


def study_results(path):
    """Per record id: 'proven-key', 'proven' or '' from a `tropa study --epd` output."""
    out = {}
    pattern = re.compile(r"^(\S+)\s+bm (.+?)\s+(win|draw)\s+played (\S+)\s.*proven (yes|no)")
    with open(path) as f:
        for line in f:
            m = pattern.match(line)
            if not m:
                continue
            keys = m.group(2).split()
            proven = m.group(5) == "yes"
            out[m.group(1)] = "proven-key" if proven and m.group(4) in keys else ("proven" if proven else "")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--epd", default="tests/data/combinations.epd")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--study", help="a `tropa study --epd` output of the same set")
    args = parser.parse_args()

    studied = study_results(args.study) if args.study else {}
    buckets = collections.Counter()
    proven_in = collections.Counter()
    try:
        engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    except (OSError, chess.engine.EngineError) as e:
        sys.exit(f"error: cannot start {args.stockfish}: {e}")
    engine.configure({"Threads": 1, "Hash": 64})
    with open(args.epd) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                board, ops = chess.Board.from_epd(line)
            except ValueError as e:
                sys.exit(f"error: {args.epd}:{number}: {e}")
            rid = ops.get("id", f"line {number}")
            # A new game object each time: python-chess sends ucinewgame, clearing the hash.
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth), game=object())
            score = info["score"].pov(board.turn)
            pv = info.get("pv", [])
            if score.is_mate() and score.mate() > 0:
                plies = 2 * score.mate() - 1
                what = f"mate in {plies} plies"
                bucket = MATE_SHORT if plies <= 7 else MATE_LONG
            else:
                ply = ahead_from(board, pv)
                what = f"300 ahead from ply {ply}" if ply else "never 300 ahead"
                if ply is None:
                    bucket = NEVER
                elif ply <= 6:
                    bucket = AHEAD_6
                elif ply <= 10:
                    bucket = AHEAD_10
                else:
                    bucket = AHEAD_LATER
            result = studied.get(rid, "")
            buckets[bucket] += 1
            if result:
                proven_in[(bucket, result)] += 1
            print(f"{rid}  {score}  {what}  (line of {len(pv)} plies)  {result}".rstrip(), flush=True)
    engine.quit()
    print()
    for bucket in BUCKETS:
        count = buckets[bucket]
        extra = ""
        if args.study:
            extra = f"; proven with the key move first {proven_in[(bucket, 'proven-key')]}, with another {proven_in[(bucket, 'proven')]}"
        print(f"{bucket}: {count}{extra}")


if __name__ == "__main__":
    main()
