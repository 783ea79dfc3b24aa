#!/usr/bin/env python3
"""Labels FENs with Stockfish 15.1 at a fixed depth, in batch (one SF
process fed by a writer thread). Keeps positions whose best move is not a
capture or promotion and whose score is not a mate; writes 'FEN;cp' with cp
from White's view.  Usage: label.py IN OUT DEPTH PART NPARTS"""
import sys, subprocess, threading
inp, out, depth, part, nparts = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
fens = [l.strip() for i, l in enumerate(open(inp)) if i % nparts == part and l.strip()]
sf = subprocess.Popen(['/usr/games/stockfish'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1 << 16)
def writer():
    w = sf.stdin
    w.write("uci\nsetoption name Threads value 1\nsetoption name Hash value 16\nisready\n")
    for f in fens:
        w.write(f"position fen {f}\ngo depth {depth}\n")
    w.write("quit\n"); w.flush()
threading.Thread(target=writer, daemon=True).start()
def occupied(fen):
    board = fen.split()[0]
    occ = set(); r = 7; f = 0
    for ch in board:
        if ch == '/': r -= 1; f = 0
        elif ch.isdigit(): f += int(ch)
        else: occ.add(r * 8 + f); f += 1
    return occ
o = open(out, 'w')
i = 0; score = None; kept = 0
for line in sf.stdout:
    if line.startswith("info") and " score " in line:
        t = line.split(); k = t.index("score"); score = (t[k+1], t[k+2])
    elif line.startswith("bestmove"):
        fen = fens[i]; i += 1
        bm = line.split()[1]
        s, score = score, None
        if s is None or s[0] != "cp" or bm == "(none)" or len(bm) > 4: continue
        to = (int(bm[3]) - 1) * 8 + (ord(bm[2]) - 97)
        if to in occupied(fen): continue
        cp = int(s[1])
        if fen.split()[1] == 'b': cp = -cp
        if abs(cp) > 3000: continue
        o.write(f"{fen};{cp}\n"); kept += 1
        if i == len(fens): break
o.close()
print(f"{i} labelled, {kept} kept", file=sys.stderr)
