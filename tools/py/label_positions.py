#!/usr/bin/env python3
"""Labels FENs with a UCI engine at a fixed depth, in batch (one engine
process fed by a writer thread). Keeps positions whose best move is not a
capture or promotion and whose score is not a mate; writes 'FEN;cp' with cp
from White's view.

Usage: label_positions.py IN OUT DEPTH PART NPARTS [--engine PATH] [--variant NAME]

The engine is Stockfish 15.1 (/usr/games/stockfish) for chess; with
--variant it is told `UCI_Variant NAME` (Fairy-Stockfish,
/usr/games/fairy-stockfish, for its built-in variants such as capablanca,
embassy or almost). Boards of any width and height are read from the FEN
(ranks past 9 are written with two digits, as in `a10`).

`quit` is sent only after the last `bestmove` has been read: sent earlier, it
stopped the last search of the part at whatever depth it had reached, so the
last label depended on timing (two runs could differ in their last line)."""
import argparse, re, subprocess, sys, threading

ap = argparse.ArgumentParser()
ap.add_argument("inp"); ap.add_argument("out")
ap.add_argument("depth", type=int); ap.add_argument("part", type=int); ap.add_argument("nparts", type=int)
ap.add_argument("--engine", default=None)
ap.add_argument("--variant", default=None)
a = ap.parse_args()
engine = a.engine or ('/usr/games/fairy-stockfish' if a.variant else '/usr/games/stockfish')
fens = [l.strip().split(';')[0] for i, l in enumerate(open(a.inp)) if i % a.nparts == a.part and l.strip()]
sf = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1 << 16)


def writer():
    w = sf.stdin
    w.write("uci\nsetoption name Threads value 1\nsetoption name Hash value 16\n")
    if a.variant:
        w.write(f"setoption name UCI_Variant value {a.variant}\n")
    w.write("isready\n")
    for f in fens:
        w.write(f"position fen {f}\ngo depth {a.depth}\n")
    w.flush()


feeder = threading.Thread(target=writer, daemon=True)
feeder.start()


def occupied(fen):
    """The occupied squares of a FEN's board, as (file, rank) pairs."""
    ranks = fen.split()[0].split('/')
    occ = set()
    for r, row in enumerate(reversed(ranks)):
        f = 0
        for m in re.finditer(r"\d+|.", row):
            t = m.group(0)
            if t.isdigit():
                f += int(t)
            elif t.isalpha():
                occ.add((f, r)); f += 1
            # '+', '~' and the like mark the piece before them
    return occ


MOVE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)$")
o = open(a.out, 'w')
i = 0; score = None; kept = 0
for line in sf.stdout if fens else []:
    if line.startswith("info") and " score " in line:
        t = line.split(); k = t.index("score"); score = (t[k+1], t[k+2])
    elif line.startswith("bestmove"):
        fen = fens[i]; i += 1
        bm = line.split()[1]
        s, score = score, None
        m = MOVE.match(bm)  # promotions, drops and gating do not match
        keep = s is not None and s[0] == "cp" and m is not None
        if keep:
            to = (ord(m.group(3)) - 97, int(m.group(4)) - 1)
            cp = int(s[1]) if fen.split()[1] == 'w' else -int(s[1])
            keep = to not in occupied(fen) and abs(cp) <= 3000
        if keep:
            o.write(f"{fen};{cp}\n"); kept += 1
        if i == len(fens): break
o.close()
feeder.join()
sf.stdin.write("quit\n"); sf.stdin.flush()
sf.wait()
print(f"{i} labelled, {kept} kept", file=sys.stderr)
