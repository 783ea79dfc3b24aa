#!/usr/bin/env python3
"""How well fers's evaluations predict labelled positions: the network
(`--evalfile`) and the hand-written evaluation, against `FEN;cp[;result]`
lines (cp from White's view, as `label_positions.py` and
`engine_selfplay.py` write them), by the loss `fers-nnue` trains on: the
mean squared difference of sigmoid(cp / 400). The hand-written
evaluation's scale is fitted first (its units are not the labels'); the
network is taken as it is. Printed for all positions and by move number,
so a network can be judged on the positions that matter (say, those of
games against the engine to beat) rather than on its own kind of data.

usage: eval_vs_labels.py DATA [--evalfile NET] [--variant NAME]
       [--variantpath FILE] [--engine PATH]
"""
import argparse
import math
import subprocess


def sig(x):
    return 1 / (1 + math.exp(-x / 400))


def mse(pairs, k=1.0):
    return sum((sig(k * e) - sig(cp)) ** 2 for e, cp in pairs) / max(len(pairs), 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("--evalfile")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--variantpath")
    ap.add_argument("--engine", default="target/release/fers")
    a = ap.parse_args()
    rows = []
    for line in open(a.data):
        parts = line.strip().split(";")
        if len(parts) >= 2 and parts[1].lstrip("-").isdigit():
            rows.append((parts[0], int(parts[1])))
    cmds = []
    if a.variantpath:
        cmds.append(f"setoption name VariantPath value {a.variantpath}")
    cmds.append(f"setoption name UCI_Variant value {a.variant}")
    if a.evalfile:
        cmds.append(f"setoption name EvalFile value {a.evalfile}")
    for fen, _ in rows:
        cmds += [f"position fen {fen}", "eval"]
    cmds.append("quit")
    out = subprocess.run([a.engine], input="\n".join(cmds) + "\n", capture_output=True,
                         text=True).stdout.splitlines()
    hce = [int(l.split()[2]) for l in out if l.startswith("Classical evaluation")]
    net = [int(l.split()[2]) for l in out if l.startswith("NNUE evaluation:")
           and l.split()[2].lstrip("-").isdigit()]
    if len(hce) != len(rows):
        raise SystemExit(f"{len(rows)} positions but {len(hce)} evaluations (errors in the FENs?)")
    # Evaluations are from the side to move's view; labels from White's.
    stm = [1 if fen.split()[1] == "w" else -1 for fen, _ in rows]
    h = [(s * e, cp) for s, e, (_, cp) in zip(stm, hce, rows)]
    n = [(s * e, cp) for s, e, (_, cp) in zip(stm, net, rows)] if len(net) == len(rows) else None
    k = min((x / 20 for x in range(10, 61)), key=lambda k: mse(h, k))
    print(f"{len(rows)} positions; hand-written scale fitted: x{k:.2f}")
    print(f"{'moves':>8} {'n':>6} {'hand-written':>13} {'network':>9}")

    def show(name, idx):
        hh = [h[i] for i in idx]
        nn = f"{mse([n[i] for i in idx]):9.4f}" if n else "        -"
        print(f"{name:>8} {len(idx):6d} {mse(hh, k):13.4f} {nn}")

    show("all", range(len(rows)))
    for lo in range(0, 70, 10):
        idx = [i for i, (fen, _) in enumerate(rows)
               if lo <= int(fen.split()[-1]) < (lo + 10 if lo < 60 else 10 ** 6)]
        if idx:
            show(f"{lo}-" if lo == 60 else f"{lo}-{lo + 9}", idx)


if __name__ == "__main__":
    main()
