#!/usr/bin/env python3
"""Labels FENs with Stockfish 15.1 at a fixed depth, in batch (one SF
process fed by a writer thread). Keeps positions whose best move is not a
capture or promotion and whose score is not a mate; writes 'FEN;cp' with cp
from White's view.  Usage: label.py IN OUT DEPTH PART NPARTS

`quit` is sent only after the last `bestmove` has been read: sent earlier, it
stopped the last search of the part at whatever depth it had reached, so the
last label depended on timing (two runs could differ in their last line)."""
import sys, subprocess, threading
inp, out, depth, part, nparts = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
fens = [l.strip() for i, l in enumerate(open(inp)) if i % nparts == part and l.strip()]
sf = subprocess.Popen(['/usr/games/stockfish'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1 << 16)
def writer():
    w = sf.stdin
    w.write("uci\nsetoption name Threads value 1\nsetoption name Hash value 16\nisready\n")
    for f in fens:
        w.write(f"position fen {f}\ngo depth {depth}\n")
    w.flush()
feeder = threading.Thread(target=writer, daemon=True)
feeder.start()
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
for line in sf.stdout if fens else []:
    if line.startswith("info") and " score " in line:
        t = line.split(); k = t.index("score"); score = (t[k+1], t[k+2])
    elif line.startswith("bestmove"):
        fen = fens[i]; i += 1
        bm = line.split()[1]
        s, score = score, None
        keep = s is not None and s[0] == "cp" and bm != "(none)" and len(bm) == 4
        if keep:
            to = (int(bm[3]) - 1) * 8 + (ord(bm[2]) - 97)
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
