#!/usr/bin/env python3
"""Keeps the openings an independent engine finds level: each FEN of IN is
searched by Fairy-Stockfish 11.1 (/usr/games/fairy-stockfish, one thread,
Hash 16, `go depth DEPTH` from a fresh `ucinewgame`), and those whose score
lies within MAX centipawns of level (Fairy-Stockfish's own scale) are
written to OUT in IN's order, at most COUNT of them.

usage: balanced_openings.py IN OUT VARIANT [DEPTH [MAX [COUNT]]]

DEPTH defaults to 10, MAX to 50, COUNT to all. VARIANT is one that
Fairy-Stockfish 11.1 knows by the same name (capablanca, embassy, almost,
chess, ...). Random 4-ply openings (`fers-book openings`, as
tools/match-settings.sh makes them) often hang a piece or a pawn: in
fers's Capablanca runs against Fairy-Stockfish about half the pairs of
games split one win each, the opening deciding both, which widens every
error bar. docs/search.md (thirty-ninth session) has the files made this
way and what they change."""
import sys

from tree_depth import Engine


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    src, out, variant = sys.argv[1:4]
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else 50
    count = int(sys.argv[6]) if len(sys.argv) > 6 else None
    fens = [l.strip() for l in open(src) if l.strip() and not l.startswith("#")]
    chosen = [] if variant == "chess" else [("UCI_Variant", variant)]
    fsf = Engine(["/usr/games/fairy-stockfish"], [("Hash", "16")] + chosen)
    kept = []
    for fen in fens:
        # EPD lines may carry operations after the four fields.
        fields = fen.split(";")[0].split()
        board = " ".join(fields[:6]) if len(fields) >= 6 else " ".join(fields[:4]) + " 0 1"
        score = None
        for line in fsf.search(board, f"depth {depth}"):
            words = line.split()
            if "score" in words and "upperbound" not in words and "lowerbound" not in words:
                i = words.index("score")
                score = (words[i + 1], int(words[i + 2]))
        if score is not None and score[0] == "cp" and abs(score[1]) <= limit:
            kept.append(fen)
            if count is not None and len(kept) >= count:
                break
    fsf.quit()
    with open(out, "w") as f:
        for fen in kept:
            f.write(fen + "\n")
    print(f"{len(kept)} of {len(fens)} openings within {limit} cp at depth {depth}")


if __name__ == "__main__":
    main()
