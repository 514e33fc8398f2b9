#!/usr/bin/env python3
"""Counts the distinct openings in a match PGN (from ../shared/tools/match.py --pgn).

    python3 scripts/research/book_openings.py games.pgn [--plies 12] [--engine book]

Prints the number of games, the distinct first-N-ply sequences overall and by the colour of
ENGINE, and how many moves ENGINE played from its book: match.py writes the engine's reported
score as a comment after every searched move, and a book move has none.
"""
import argparse
import collections

import chess.pgn


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn")
    ap.add_argument("--plies", type=int, default=12)
    ap.add_argument("--engine", default="book", help="name of the engine with the book")
    args = ap.parse_args()
    openings = collections.Counter()
    by_colour = {"white": set(), "black": set()}
    book_moves = []
    games = 0
    with open(args.pgn, encoding="utf-8") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            games += 1
            nodes = list(game.mainline())
            line = tuple(n.move.uci() for n in nodes[: args.plies])
            openings[line] += 1
            white = game.headers.get("White") == args.engine
            by_colour["white" if white else "black"].add(line)
            side = 0 if white else 1
            count = 0
            for i, n in enumerate(nodes):
                if i % 2 != side:
                    continue
                if n.comment.strip():
                    break
                count += 1
            book_moves.append(count)
    print(f"games {games}")
    print(f"distinct {args.plies}-ply openings: {len(openings)}")
    for colour, lines in by_colour.items():
        print(f"  with {args.engine} as {colour}: {len(lines)}")
    most = openings.most_common(1)[0][1] if openings else 0
    print(f"most repeated opening: {most} games")
    if book_moves:
        book_moves.sort()
        print(f"{args.engine}'s book moves per game: median {book_moves[len(book_moves) // 2]}, "
              f"mean {sum(book_moves) / len(book_moves):.1f}, max {book_moves[-1]}")


if __name__ == "__main__":
    main()
