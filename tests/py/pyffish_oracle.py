#!/usr/bin/env python3
"""Legal-move oracle for fers tests, backed by pyffish (Fairy-Stockfish).

Usage: pyffish_oracle.py VARIANTS.INI [MORE.INI ...]
Loads the variant files, prints "ready", then answers one request per line:
    moves<TAB>variant<TAB>fen<TAB>space-separated moves already played
        -> the legal moves after those moves, sorted, space-separated
    fen<TAB>variant<TAB>fen<TAB>moves
        -> the FEN after those moves
Errors are answered as "error: <text>" so the caller never hangs.
"""
import sys

try:
    import pyffish as sf
except ImportError:  # the caller checks for this and skips
    print("error: pyffish is not installed (pip install pyffish)", flush=True)
    sys.exit(3)

for path in sys.argv[1:]:
    with open(path) as f:
        sf.load_variant_config(f.read())
print("ready", flush=True)

for line in sys.stdin:
    parts = line.rstrip("\n").split("\t")
    try:
        what, variant, fen, moves = parts[0], parts[1], parts[2], parts[3].split()
        if what == "moves":
            out = " ".join(sorted(sf.legal_moves(variant, fen, moves)))
        else:
            out = sf.get_fen(variant, fen, moves)
    except Exception as e:  # noqa: BLE001 - report anything to the caller
        out = "error: %s" % e
    print(out, flush=True)
