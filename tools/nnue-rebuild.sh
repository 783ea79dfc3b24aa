#!/usr/bin/env bash
# Rebuilds the data of the chess network and trains it, the recipe of
# b9ce972's engine/nets/chess.nnue, the starting point that
# tools/nnue-finetune.sh trains into the shipped network
# (engine/nets/README.md), and records the sha256 of every file it makes in
# DIR/SHA256SUMS.
#
#   tools/nnue-rebuild.sh DIR [STEP] [EPOCHS]
#
# STEP (default 1) plays every STEP-th opening only: STEP=1 is the full run
# (hours on 2 cores: about 1.2M Stockfish searches to label), a large STEP a
# rehearsal that checks the pipeline in minutes. EPOCHS defaults to 30, the
# b9ce972 network's. Every step is deterministic (fixed seeds, one-thread
# Stockfish at a fixed depth, fers-nnue with 2 threads), so two runs with the
# same arguments on the same binaries give the same SHA256SUMS.
#
# Needs python3 with python-chess, /usr/games/stockfish (15.1 for b9ce972's
# network), and a release build of fers-nnue:
#   cargo build --release -p fers-tools --bin fers-nnue
set -euo pipefail
dir=${1:?usage: tools/nnue-rebuild.sh DIR [STEP] [EPOCHS]}
step=${2:-1}
epochs=${3:-30}
root="$(cd "$(dirname "$0")/.." && pwd)"
nnue="$root/target/release/fers-nnue"
py="$root/tools/py"
[ -x "$nnue" ] || { echo "build fers-nnue first: cargo build --release -p fers-tools --bin fers-nnue" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"
rm -f d0.txt d1.txt d2.txt base.txt ./*.fen l*.txt chess.nnue SHA256SUMS

# 1. Tuning positions: Stockfish self-play at depth 7 from the 8-move
#    openings (README, "Evaluation tuning"), two processes and a third run
#    with more random moves.
# (`wait PID` returns the job's status, so a failed job stops the script.)
python3 "$py/gen_tune_data.py" 0 $((2 * step)) d0.txt & p0=$!
python3 "$py/gen_tune_data.py" "$step" $((2 * step)) d1.txt & p1=$!
wait "$p0"; wait "$p1"
python3 "$py/gen_tune_data.py" 0 "$step" d2.txt --seed 1000 --random 0.12
cat d0.txt d1.txt d2.txt > base.txt

# 2. Random walks of 1 to 8 moves from each, three seeds, 6 walks a position;
#    each labelled by Stockfish at depth 5 in two parts (quiet best moves only).
for seed in 7 9 13; do
    "$nnue" -walk base.txt "w$seed.fen" 6 "$seed"
    python3 "$py/label_positions.py" "w$seed.fen" "l${seed}a.txt" 5 0 2 & p0=$!
    python3 "$py/label_positions.py" "w$seed.fen" "l${seed}b.txt" 5 1 2 & p1=$!
    wait "$p0"; wait "$p1"
done

# 3. The network: 256 hidden units, batch 16384, seed 1, 2 threads.
"$nnue" chess.nnue base.txt l7a.txt l7b.txt l9a.txt l9b.txt l13a.txt l13b.txt \
    -epochs "$epochs" -batch 16384 -hidden 256 -seed 1 -threads 2 2> train.log

wc -l base.txt ./*.fen l*.txt
sha256sum d0.txt d1.txt d2.txt base.txt ./*.fen l*.txt chess.nnue | tee SHA256SUMS
tail -1 train.log
