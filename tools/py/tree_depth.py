#!/usr/bin/env python3
"""The shape of two engines' trees: for each depth, the nodes each engine
had searched when it completed that iteration, as a geometric mean over the
positions of a FEN file (each searched from a fresh `ucinewgame`, Hash 16,
one thread, `go nodes N`). Only depths every position completed are
printed, and not the deepest of each search, which the node limit may
have cut short. The ratio of successive rows is the effective branching
factor.

usage: tree_depth.py FENS NODES VARIANT [FERS_BINARY]

FENS is a file of FENs, one a line ('#' lines skipped; e.g.
variants/bench/almost.fen). VARIANT is `chess` or a variant of
variants/examples.ini that Fairy-Stockfish 11.1 (/usr/games/fairy-stockfish)
knows by the same name (capablanca, embassy, almost). FERS_BINARY defaults
to the repository's target/release/fers.

docs/search.md (thirty-second session) gives almost's figures: fers's tree
is about twice Fairy-Stockfish's at depths 5 to 10, and grows by 1.61 a ply
from depth 10 to 14 where Fairy-Stockfish's grows by 1.72."""
import math
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


class Engine:
    def __init__(self, cmd, options):
        self.p = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"the engine ended before '{token}'")
            if line.startswith(token):
                return line

    def search(self, fen, limit):
        """A search of `fen` from a fresh `ucinewgame` with `go LIMIT`: its
        output lines, the `bestmove` line last."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait("readyok")
        self.send(f"go {limit}")
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine ended during a search")
            yield line
            if line.startswith("bestmove"):
                return

    def nodes_by_depth(self, fen, nodes):
        """Nodes at each completed iteration (exact scores of the first line)."""
        found = {}
        for line in self.search(fen, f"nodes {nodes}"):
            if line.startswith("bestmove"):
                # The last line may be an iteration the node limit cut
                # short (fers reports one whose first move was searched).
                if found:
                    del found[max(found)]
                return found
            depth = re.search(r" depth (\d+)", line)
            count = re.search(r" nodes (\d+)", line)
            if (
                depth
                and count
                and " pv " in line
                and "bound" not in line
                and re.search(r" multipv (?!1 )\d+", line) is None
            ):
                found[int(depth.group(1))] = int(count.group(1))

    def quit(self):
        self.send("quit")
        self.p.wait()


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    fens = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
    nodes, variant = int(sys.argv[2]), sys.argv[3]
    fers = sys.argv[4] if len(sys.argv) > 4 else os.path.join(ROOT, "target", "release", "fers")
    chosen = [] if variant == "chess" else [("UCI_Variant", variant)]
    engines = {
        "fers": Engine(
            [fers],
            [("Hash", "16"), ("VariantPath", os.path.join(ROOT, "variants", "examples.ini"))]
            + chosen,
        ),
        "fsf": Engine(["/usr/games/fairy-stockfish"], [("Hash", "16")] + chosen),
    }
    for name, engine in engines.items():
        by_depth = {}
        for fen in fens:
            for depth, count in engine.nodes_by_depth(fen, nodes).items():
                by_depth.setdefault(depth, []).append(count)
        engine.quit()
        print(name)
        for depth in sorted(by_depth):
            counts = by_depth[depth]
            if len(counts) < len(fens):
                continue
            mean = math.exp(sum(math.log(max(c, 1)) for c in counts) / len(counts))
            print(f"  depth {depth:2d}  nodes {mean:10.0f}")


if __name__ == "__main__":
    main()
