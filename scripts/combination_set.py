#!/usr/bin/env python3
"""Builds the combination set, tests/data/combinations.epd: positions from practical play where
the winning move gives up material, each labelled with how the sacrifice works.

    python3 scripts/combination_set.py [--stockfish /usr/games/stockfish]
        [--games-dir ../shared/data/games] [--out tests/data/combinations.epd]

Only python-chess is needed, and Stockfish (Threads=1, so the build uses one core).  The build is
deterministic: fixed inputs, a fixed order, Stockfish at a fixed depth with its hash cleared
(ucinewgame) before every position, no clock anywhere in a decision.

Sources
  * Win at Chess (tests/data/wac.epd) and Bratko-Kopec (../shared/data/suites/bratko_kopec.epd):
    records with a single bm; the bm is the key move.
  * Master games, ../shared/data/games/{classics,fischer,kasparov}.pgn, in file order: every
    position from White's 10th to Black's 50th move; the move played is the key move.
  Two positions are held for other checks and never taken: Botvinnik-Capablanca, AVRO 1938,
  before 30.Ba3 (any position whose FEN starts 8/p3q1kp/1p2Pnp1/3pQ3/2pP4/1nP3N1/1B4PP/6K1 w),
  and Kasparov-Ribli 1989 after 26...Bxe3 (White's 27th move in a game of 1989 with Kasparov
  White and Ribli Black, after 26...Bxe3; the files' 1989 games of the two end before that).
  Positions are deduplicated by their four EPD fields (the first one seen wins).

Selection: a candidate (position, key move) needs
  1. the position: side to move not in check, at least 5 pieces other than kings and pawns on
     the board; the key move neither a king move (castling included) nor a promotion;
  2. a sacrifice: the static exchange evaluation (SEE) of the key move is <= -100, i.e. the mover
     loses at least a pawn's worth more than it takes when the opponent answers with the best
     sequence of captures on the destination square (values P 100, N 320, B 330, R 500, Q 900;
     each side captures with its least valuable piece, legal moves only, so pins, x-rays and the
     kings are handled; either side may stop capturing).  A quiet move to an attacked square and
     a capture are judged alike;
  3. games only, to spend Stockfish time where combinations are: the side making the move won
     the game; at most one position per game (the first one that qualifies);
  4. Stockfish (Threads=1, Hash=64, MultiPV=2, depth 16, ucinewgame first, the position as its
     EPD record gives it: halfmove clock 0, no earlier moves, so a record can be checked again
     from the file alone and gives the same search): the key move is its best move, scored at
     least +150 cp for the side to move or a mate for it, and either 100 cp better than the
     second-best move or a mate where the second is none (two mates: dropped).
Caps (deterministic): the suites give at most --suite-quota records (27): every qualifying
Bratko-Kopec record, then Win at Chess records.  A games file is read whole for candidates
(rules 1-3, cheap); at most --max-sf-per-file (600) of them, spread evenly over the file in
order, are searched (rule 4), skipping the later candidates of a game that already gave a
record; it gives --per-file (18) records.  Where more qualify than are taken (Win at Chess and
each games file), the labelled records are taken by method in turn, in the order of the rules
below, each method's in file order, so every method found is represented before the commoner
ones fill the quota; the records are written in file order.

Labels, from the key move K (from square f to square t) and the principal variation of K,
PV = K, r1, m2, r2, m3, r3, m4 (our moves K, m2, m3, m4; the opponent's r1, r2, r3).  "Our later
moves" are m2, m3 and m4.  A piece's "guarded squares" are the squares it attacks in the original
position (its own men included).  The rules are tried in this order; the first that applies
gives the method and the defender; a position where none applies is dropped.  Overloading
comes first because its pattern (the defender recaptures, and loses a second square) would
otherwise always be read as removal or decoy.
  1. overloading: r1 captures on t with piece D, D also guarded another square s, m2 goes to s
     and captures or gives check, and D (now on t) no longer attacks s.  Defender D, guards s.
  2. removal: K captures (and SEE < 0): the captured piece is the defender.
  3. decoy: r1 captures on t: the capturer is the defender, lured onto t.
  4. deflection: from t, K's piece attacks an enemy piece other than the king that it did not
     attack from f and that is not the captured piece; that piece moves (or captures) in r1.
     It is the defender.
  5. interference: t lies strictly between an enemy bishop, rook or queen S and a square q that S
     guarded, and one of our later moves goes to q while S no longer attacks it.  Defender S,
     guards q (the earliest such move in the PV; ties by S's square).
  6. clearance: m2 is played by another of our pieces through f or onto f (f vacated by K).  The
     defender is the least valuable enemy piece that guarded m2's destination (then guards is that
     square), otherwise the piece m2 captures, otherwise the enemy king if m2 gives check.
guards (rules 2-4, and 6 where not given above): the first square in PV order that the defender
guarded and that one of our later moves goes to or captures on while the defender, followed
through the PV (captured, or moved by its replies), no longer attacks it (a move that captures
the defender itself does not count); if none, the defender's own square.  The defender is
written as its letter and its square in the original position.

The larger set and its halves (--tuned, for tests/data/combinations_large.epd):

    python3 scripts/combination_set.py --suite-quota 1000 --per-file 1000 \
        --tuned tests/data/combinations.epd --out tests/data/combinations_large.epd

takes every qualifying record (the quotas above all that qualify; the same searches as the
small set, so its records are found again).  A record whose four EPD fields and key move are
those of a record of the --tuned set keeps that record's id and is in the tuning half (the set
was tuned on); every other record is numbered after the tuned set's largest id, in file order,
and its half is fixed by its position alone: "validation" when the first byte of the SHA-256 of
its four EPD fields (as written, UTF-8) is odd, else "tuning".  The half is written as c5.  The
rule never looks at a record's labels, its search or any measurement.

Output: one EPD record a line, `<epd> bm <SAN>; id "combo.NNN"; c0 "<source>"; c1 "defender Qe7";
c2 "<method>"; c3 "guards f6"; c4 "sf15.1 d16: +3.10, second +0.40";` (with --tuned also
`c5 "tuning"` or `c5 "validation"`), suites first, then the games files in order; written
atomically.  `--verify FILE` searches every record again and
reports any record whose bm, c1, c2, c3 or c4 the rules no longer give.  The figures of the
build go to standard error: per source the games read, positions scanned, passing SEE, from
the winner's side, duplicates, Stockfish searches, confirmed, without a label, qualified and
kept (with --tuned, also the tuning and validation records per source).
"""
import argparse
import collections
import hashlib
import os
import sys
import time

import chess
import chess.engine
import chess.pgn

from atomic_file import write_atomically
from epd_halves import half_of  # the records not tuned on: the fixed rule of the split

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900,
          chess.KING: 20000}
SEE_MAX = -100
MIN_PIECES = 5
FIRST_MOVE, LAST_MOVE = 10, 50
DEPTH, HASH, MULTIPV = 16, 64, 2  # DEPTH: the default of --depth
MIN_SCORE, MIN_GAP = 150, 100
MATE = 100000
GAME_FILES = ("classics.pgn", "fischer.pgn", "kasparov.pgn")
HELD_FEN_PREFIX = "8/p3q1kp/1p2Pnp1/3pQ3/2pP4/1nP3N1/1B4PP/6K1 w"
METHODS = ("overloading", "removal", "decoy", "deflection", "interference", "clearance")


# ---------------------------------------------------------------- static exchange evaluation

def _captured_square(board, move):
    if board.is_en_passant(move):
        return move.to_square + (-8 if board.turn == chess.WHITE else 8)
    return move.to_square


def _exchange(board, square):
    """What the side to move gains at best by capturing on `square` (0 if it stops)."""
    target = board.piece_at(square)
    if target is None:
        return 0
    best = None
    for m in board.generate_legal_captures(to_mask=chess.BB_SQUARES[square]):
        if m.promotion not in (None, chess.QUEEN):
            continue
        key = (VALUES[board.piece_type_at(m.from_square)], m.from_square)
        if best is None or key < best[0]:
            best = (key, m)
    if best is None:
        return 0
    m = best[1]
    promo = VALUES[chess.QUEEN] - VALUES[chess.PAWN] if m.promotion else 0
    board.push(m)
    gain = VALUES[target.piece_type] + promo - _exchange(board, square)
    board.pop()
    return max(0, gain)


def see(board, move):
    """The static exchange value of `move` for the side that plays it."""
    captured = board.piece_at(_captured_square(board, move))
    gain = VALUES[captured.piece_type] if captured else 0
    b = board.copy(stack=False)
    b.push(move)
    return gain - _exchange(b, move.to_square)


def pieces_count(board):
    kp = board.kings | board.pawns
    return chess.popcount(board.occupied & ~kp)


def sacrifice(board, move):
    """SEE of the move when the position and move qualify (rules 1-2), else None."""
    if board.is_check() or pieces_count(board) < MIN_PIECES:
        return None
    if move.promotion or board.piece_type_at(move.from_square) == chess.KING:
        return None
    s = see(board, move)
    return s if s <= SEE_MAX else None


# ---------------------------------------------------------------- Stockfish

def _cp(score):
    return score.score(mate_score=MATE)


def _fmt(score):
    if score.is_mate():
        return f"#{score.mate()}"
    return f"{score.score() / 100:+.2f}"


class Judge:
    def __init__(self, path, depth=DEPTH):
        self.depth = depth
        self.engine = chess.engine.SimpleEngine.popen_uci(path)
        self.engine.configure({"Threads": 1, "Hash": HASH})
        name = self.engine.id.get("name", "stockfish")
        parts = name.split()
        self.tag = ("sf" + parts[1]) if len(parts) > 1 and parts[0] == "Stockfish" else name
        self.searches = 0

    def close(self):
        self.engine.quit()

    def confirm(self, board, move):
        """(pv, comment) when Stockfish confirms `move` as the unique winning move, else None."""
        self.searches += 1
        board = chess.Board.from_epd(board.epd())[0]  # as the record gives it: clocks 0 1, no history
        info = self.engine.analyse(board, chess.engine.Limit(depth=self.depth), multipv=MULTIPV,
                                   game=object())
        first = info[0]
        pv = first.get("pv") or []
        if not pv or pv[0] != move:
            return None
        s1 = first["score"].relative
        if s1.is_mate():
            if s1.mate() <= 0:
                return None
        elif s1.score() < MIN_SCORE:
            return None
        if len(info) > 1 and info[1].get("score") is not None:
            s2 = info[1]["score"].relative
            if s1.is_mate():
                if s2.is_mate() and s2.mate() > 0:
                    return None
            elif _cp(s1) - _cp(s2) < MIN_GAP:
                return None
            second = _fmt(s2)
        else:
            second = "none"
        return pv, f"{self.tag} d{self.depth}: {_fmt(s1)}, second {second}"


# ---------------------------------------------------------------- labels

def _guard(board0, pv, d_sq, only=None):
    """(ply, square): the first of our later moves (m2, m3, m4) that goes to a square the defender
    on d_sq guarded in board0 (restricted to `only` if given) while the defender, followed through
    the PV, no longer attacks it; a move that captures the defender itself does not count.  None
    if there is none."""
    guarded = board0.attacks(d_sq)
    if only is not None:
        guarded &= only
    b = board0.copy(stack=False)
    cur = d_sq
    for ply, mv in enumerate(pv[:7]):
        takes_defender = cur is not None and ply % 2 == 0 and _captured_square(b, mv) == cur
        if ply >= 2 and ply % 2 == 0 and not takes_defender:
            dest = mv.to_square
            if guarded & chess.BB_SQUARES[dest]:
                if cur is None or not b.attacks(cur) & chess.BB_SQUARES[dest]:
                    return ply, dest
        if cur is not None:
            if takes_defender:
                cur = None
            elif ply % 2 == 1 and mv.from_square == cur:
                cur = mv.to_square
        b.push(mv)
    return None


def _guards_or_own(board0, pv, d_sq):
    g = _guard(board0, pv, d_sq)
    return g[1] if g else d_sq


def label(board0, pv):
    """(method, defender square, guards square) for the key move pv[0], or None."""
    k = pv[0]
    f, t = k.from_square, k.to_square
    them = not board0.turn
    b1 = board0.copy(stack=False)
    b1.push(k)
    r1 = pv[1] if len(pv) > 1 else None
    m2 = pv[2] if len(pv) > 2 else None
    b2 = None
    if r1 is not None:
        b2 = b1.copy(stack=False)
        b2.push(r1)

    # 1. overloading
    if r1 is not None and m2 is not None and r1.to_square == t and b1.is_capture(r1):
        d = r1.from_square
        s = m2.to_square
        if s != t and board0.attacks(d) & chess.BB_SQUARES[s] and \
                not b2.attacks(t) & chess.BB_SQUARES[s] and \
                (b2.is_capture(m2) or b2.gives_check(m2)):
            return "overloading", d, s

    # 2. removal
    if board0.is_capture(k):
        d = _captured_square(board0, k)
        return "removal", d, _guards_or_own(board0, pv, d)

    # 3. decoy
    if r1 is not None and r1.to_square == t and b1.is_capture(r1):
        d = r1.from_square
        return "decoy", d, _guards_or_own(board0, pv, d)

    # 4. deflection
    if r1 is not None:
        p = r1.from_square
        piece = board0.piece_at(p)
        if piece is not None and piece.color == them and piece.piece_type != chess.KING and \
                b1.attacks(t) & chess.BB_SQUARES[p] and not board0.attacks(f) & chess.BB_SQUARES[p]:
            return "deflection", p, _guards_or_own(board0, pv, p)

    # 5. interference
    best = None
    for s in chess.SquareSet(board0.occupied_co[them] &
                             (board0.bishops | board0.rooks | board0.queens)):
        beyond = 0
        for q in chess.SquareSet(board0.attacks(s)):
            if chess.between(s, q) & chess.BB_SQUARES[t]:
                beyond |= chess.BB_SQUARES[q]
        if not beyond:
            continue
        g = _guard(board0, pv, s, only=beyond)
        if g and (best is None or (g[0], s) < (best[0], best[1])):
            best = (g[0], s, g[1])
    if best:
        return "interference", best[1], best[2]

    # 6. clearance
    if m2 is not None and m2.from_square != t and \
            (m2.to_square == f or chess.between(m2.from_square, m2.to_square) & chess.BB_SQUARES[f]):
        dest = m2.to_square
        guards = [sq for sq in chess.SquareSet(board0.attackers(them, dest))]
        if guards:
            d = min(guards, key=lambda sq: (VALUES[board0.piece_type_at(sq)], sq))
            return "clearance", d, dest
        if b2.is_capture(m2):
            d = _captured_square(b2, m2)
            if r1.to_square == d:  # the piece came there with the reply
                d = r1.from_square
            return "clearance", d, _guards_or_own(board0, pv, d)
        if b2.gives_check(m2):
            d = board0.king(them)
            return "clearance", d, _guards_or_own(board0, pv, d)
    return None


def defender_name(board0, sq):
    return board0.piece_at(sq).symbol().upper() + chess.square_name(sq)


# ---------------------------------------------------------------- sources

def held(board, headers=None, game_board=None):
    if board.fen().startswith(HELD_FEN_PREFIX):
        return True
    if headers is not None and game_board is not None:
        w, bl, date = headers.get("White", ""), headers.get("Black", ""), headers.get("Date", "")
        if "kasparov" in w.lower() and "ribli" in bl.lower() and date.startswith("1989"):
            if game_board.move_stack and board.turn == chess.WHITE and board.fullmove_number == 27:
                last = game_board.move_stack[-1]
                prev = game_board.copy()
                prev.pop()
                if prev.san(last) == "Bxe3":
                    return True
    return False


def suite_records(wac_path, bk_path):
    for path, prefix in ((wac_path, ""), (bk_path, "Bratko-Kopec ")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                board, ops = chess.Board.from_epd(line)
                bm = ops.get("bm") or []
                if len(bm) != 1:
                    continue
                yield board, bm[0], prefix + str(ops.get("id", "?"))


def _name(s):
    return " ".join(s.replace(",", " ").replace('"', "'").split()) or "?"


def game_source(headers, board, move, fname):
    place = headers.get("Event", "")
    if place in ("", "?"):
        place = headers.get("Site", "")
    place = _name(place) if place not in ("", "?") else "?"
    year = headers.get("Date", "????")[:4]
    n = board.fullmove_number
    mv = f"{n}." if board.turn == chess.WHITE else f"{n}..."
    return (f"{_name(headers.get('White', '?'))}–{_name(headers.get('Black', '?'))}, "
            f"{place} {year}, before {mv}{board.san(move)} ({fname})")


def game_candidates(path, fname, stats):
    """Yields (game index, board, move, source) for the games file, in file order."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        gi = 0
        while (game := chess.pgn.read_game(fh)) is not None:
            gi += 1
            stats["games"] = gi
            result = game.headers.get("Result", "*")
            winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
            board = game.board()
            for node in game.mainline():
                move = node.move
                if board.fullmove_number > LAST_MOVE:
                    break
                if board.fullmove_number >= FIRST_MOVE:
                    stats["scanned"] += 1
                    if sacrifice(board, move) is not None:
                        stats["SEE"] += 1
                        if board.turn == winner and not held(board, game.headers, board):
                            stats["winner"] += 1
                            yield gi, board.copy(stack=False), move, \
                                game_source(game.headers, board, move, fname)
                board.push(move)


# ---------------------------------------------------------------- build

def evenly(items, n):
    """n of the items, spread evenly over them in order (all of them if there are no more)."""
    if n <= 0:
        return []
    if len(items) <= n:
        return list(items)
    return [items[(i * len(items)) // n] for i in range(n)]


def balanced(records, n, seen):
    """Up to n of the records (in their order), taking the methods in turn: each round takes the
    next record of every method in METHODS order, so the rarer methods are all in before the
    commoner ones fill the rest.  Records whose position is in `seen` are skipped."""
    queues = {m: [r for r in records if r[5][0] == m and r[1].epd() not in seen] for m in METHODS}
    chosen, taken = [], set()
    while len(chosen) < n and any(queues.values()):
        for m in METHODS:
            while queues[m] and len(chosen) < n:
                r = queues[m].pop(0)
                if r[1].epd() not in taken:
                    taken.add(r[1].epd())
                    chosen.append(r)
                    break
    order = {id(r): i for i, r in enumerate(records)}
    return sorted(chosen, key=lambda r: order[id(r)])


STAT_KEYS = ("games", "scanned", "SEE", "winner", "duplicate", "searched", "Stockfish", "unlabelled",
             "qualified", "kept")


def read_tuned(path):
    """{(four EPD fields, key move UCI): id} of the set tuned on."""
    tuned = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board, ops = chess.Board.from_epd(line)
                tuned[(board.epd(), ops["bm"][0].uci())] = ops["id"]
    return tuned


def ids_and_halves(records, tuned):
    """[(id, half or None)] for the records in order: without a tuned set combo.NNN in order and
    no half; with one, the tuned records keep their ids (tuning half), the others are numbered
    after the largest tuned id and go to the half `half_of` gives."""
    if tuned is None:
        return [(f"combo.{i:03d}", None) for i in range(1, len(records) + 1)]
    nxt = max((int(i.split(".")[-1]) for i in tuned.values()), default=0)
    out = []
    for r in records:
        key = (r[1].epd(), r[2].uci())
        if key in tuned:
            out.append((tuned[key], "tuning"))
        else:
            nxt += 1
            out.append((f"combo.{nxt:03d}", half_of(r[1].epd())))
    return out


def build(args):
    t0 = time.time()
    judge = Judge(args.stockfish, args.depth)
    seen = set()
    stats = collections.defaultdict(collections.Counter)  # group -> counts
    records = []  # (group, board, move, source, comment, (method, defender, guards))

    def consider(board, move, source, group):
        """The record for the candidate when Stockfish confirms it and a label applies."""
        st = stats[group]
        if board.epd() in seen:
            st["duplicate"] += 1
            return None
        st["searched"] += 1
        got = judge.confirm(board, move)
        if got is None:
            return None
        st["Stockfish"] += 1
        pv, comment = got
        lab = label(board, pv)
        if lab is None:
            st["unlabelled"] += 1
            return None
        st["qualified"] += 1
        return (group, board, move, source, comment, lab)

    def keep(rec):
        seen.add(rec[1].epd())
        stats[rec[0]]["kept"] += 1
        records.append(rec)

    # suites: every qualifying Bratko-Kopec record, Win at Chess records by method in turn
    found = {"WAC": [], "Bratko-Kopec": []}
    for board, move, source in suite_records(args.wac, args.bk):
        group = "Bratko-Kopec" if source.startswith("Bratko") else "WAC"
        stats[group]["scanned"] += 1
        if sacrifice(board, move) is None or held(board):
            continue
        stats[group]["SEE"] += 1
        rec = consider(board, move, source, group)
        if rec is not None:
            found[group].append(rec)
    for rec in found["Bratko-Kopec"][: args.suite_quota]:
        keep(rec)
    for rec in balanced(found["WAC"], args.suite_quota - len(records), seen):
        keep(rec)
    records.sort(key=lambda r: (r[0] != "WAC", int(r[3].split(".")[-1])))
    print(f"suites: WAC {len(found['WAC'])} and Bratko-Kopec {len(found['Bratko-Kopec'])} "
          f"qualify, {len(records)} kept ({time.time() - t0:.0f} s)", file=sys.stderr)

    # games: all candidates of a file (cheap), an even sample of them searched, then by method
    for fname in GAME_FILES:
        st = stats[fname]
        cands = list(game_candidates(os.path.join(args.games_dir, fname), fname, st))
        qualified, done_games = [], set()
        for gi, board, move, source in evenly(cands, args.max_sf_per_file):
            if gi in done_games:
                continue
            rec = consider(board, move, source, fname)
            if rec is not None:
                qualified.append(rec)
                done_games.add(gi)
        for rec in balanced(qualified, args.per_file, seen):
            keep(rec)
        print(f"{fname}: {len(cands)} candidates, {st['searched']} searched, {len(qualified)} "
              f"qualify, {st['kept']} kept ({time.time() - t0:.0f} s)", file=sys.stderr)
    judge.close()

    tuned = read_tuned(args.tuned) if args.tuned else None
    named = ids_and_halves(records, tuned)
    lines = []
    for (rid, half), (group, board, move, source, comment, (method, d, g)) in zip(named, records):
        c5 = f' c5 "{half}";' if half else ""
        lines.append(f'{board.epd()} bm {board.san(move)}; id "{rid}"; c0 "{source}"; '
                     f'c1 "defender {defender_name(board, d)}"; c2 "{method}"; '
                     f'c3 "guards {chess.square_name(g)}"; c4 "{comment}";{c5}\n')
    out = args.out
    write_atomically(out, "".join(lines).encode("utf-8"))

    print(f"records {len(records)} -> {out}", file=sys.stderr)
    groups = ["WAC", "Bratko-Kopec"] + list(GAME_FILES)
    print("  " + " ".join(f"{k:>10}" for k in ["source"] + list(STAT_KEYS)), file=sys.stderr)
    for grp in groups + ["total"]:
        row = ({k: sum(stats[x][k] for x in groups) for k in STAT_KEYS} if grp == "total"
               else stats[grp])
        print("  " + " ".join(f"{x:>10}" for x in [grp[:10]] + [row[k] for k in STAT_KEYS]),
              file=sys.stderr)
    methods = collections.Counter(r[5][0] for r in records)
    print("  methods: " + ", ".join(f"{m} {methods[m]}" for m in METHODS), file=sys.stderr)
    by = collections.defaultdict(collections.Counter)
    for r in records:
        by[r[0]][r[5][0]] += 1
    for grp in groups:
        print(f"  {grp}: " + ", ".join(f"{m} {by[grp][m]}" for m in METHODS if by[grp][m]),
              file=sys.stderr)
    if tuned is not None:
        halves = collections.defaultdict(collections.Counter)
        for (rid, half), r in zip(named, records):
            halves[r[0]][half] += 1
            halves["total"][half] += 1
        for grp in groups + ["total"]:
            print(f"  {grp}: tuning {halves[grp]['tuning']}, validation {halves[grp]['validation']}",
                  file=sys.stderr)
        found = {rid for rid, _ in named}
        lost = sorted(set(tuned.values()) - found)
        print(f"  tuned records found again {len(tuned) - len(lost)} of {len(tuned)}"
              + (f"; not found: {', '.join(lost)}" if lost else ""), file=sys.stderr)
    print(f"  Stockfish searches {judge.searches}, runtime {time.time() - t0:.0f} s", file=sys.stderr)


def verify(path, stockfish, depth=DEPTH):
    """Searches every record of `path` again and checks its bm, c1-c4; returns the mismatches."""
    judge = Judge(stockfish, depth)
    bad = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            board, ops = chess.Board.from_epd(line)
            move = ops["bm"][0]
            got = judge.confirm(board, move)
            lab = label(board, got[0]) if got else None
            want = (ops["c1"], ops["c2"], ops["c3"], ops["c4"])
            have = None if lab is None else (f"defender {defender_name(board, lab[1])}", lab[0],
                                            f"guards {chess.square_name(lab[2])}", got[1])
            if have != want:
                bad += 1
                print(f"{ops['id']}: file {want}, now {have}", file=sys.stderr)
    judge.close()
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--games-dir", default=os.path.join(REPO, "..", "shared", "data", "games"))
    ap.add_argument("--wac", default=os.path.join(REPO, "tests", "data", "wac.epd"))
    ap.add_argument("--bk", default=os.path.join(REPO, "..", "shared", "data", "suites",
                                                 "bratko_kopec.epd"))
    ap.add_argument("--out", default=os.path.join(REPO, "tests", "data", "combinations.epd"))
    ap.add_argument("--depth", type=int, default=DEPTH,
                    help="depth of the engine's search (the set is built at 16; less for a quick check)")
    ap.add_argument("--suite-quota", type=int, default=27)
    ap.add_argument("--per-file", type=int, default=18)
    ap.add_argument("--max-sf-per-file", type=int, default=600)
    ap.add_argument("--tuned", metavar="EPD", help="the set tuned on: its records keep their ids "
                    "and the tuning half; the others are split by the rule above (c5)")
    ap.add_argument("--verify", metavar="EPD", help="search the records of EPD again and compare "
                    "bm and c1-c4 with what this script gives now; exit 1 on a difference")
    args = ap.parse_args()
    if args.verify:
        bad = verify(args.verify, args.stockfish, args.depth)
        print(f"{bad} records differ", file=sys.stderr)
        sys.exit(1 if bad else 0)
    build(args)


if __name__ == "__main__":
    main()
