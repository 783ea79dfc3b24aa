#!/usr/bin/env bash
# Fine-tunes a network (chess's unless VARIANT says otherwise, below) on
# the positions fers's own games reach, labelled by Stockfish 15.1: the
# recipe of engine/nets/chess.nnue (engine/nets/README.md, "The recipe:
# fine-tuning on fers's own positions"). Records the sha256 of every file
# it makes in DIR/SHA256SUMS.
#
#   tools/nnue-finetune.sh DIR [CHUNKS] [POSITIONS] [DEPTH] [EPOCHS] [START]
#
# CHUNKS (default 135) self-play runs of GAMES (below) games each, two at a
# time, at 1500 nodes a move after 8 random plies, seeds 1001, 1002, ...
# (SEED0, below); the first POSITIONS (default all) of their positions,
# without duplicates, are labelled by Stockfish at DEPTH (default 7) in two
# parts (quiet best moves only), and the starting network is trained on
# them for EPOCHS (default 8) at a learning rate of 0.0002. The starting
# network is START (default: the 4.9M-position network of b9ce972, taken
# from git; tools/nnue-rebuild.sh is its recipe); it also plays the
# self-play games.
# Every step is deterministic (fixed seeds and node counts, one-thread
# Stockfish at a fixed depth, fers-nnue with 2 threads).
#
# Any other variant, file variants included, through the environment:
#   VARIANT=NAME       play and train NAME (default chess); START is then
#                      required (the variant's network to start from)
#   VARIANTFILE=FILE   the file defining it (default variants/examples.ini)
#   GAMES=N            games per self-play run (default 100)
#   SEED0=S            the first run's seed (default 1001)
#   HOLDOUT=N          hold out the positions of the last N self-play runs
#                      (default 0): labelled too, they are the held-out set
#                      the training's loss is printed on (`-holdout`), in
#                      place of 2% of the training positions, which share
#                      games with the rest and so flatter a network that
#                      learns these positions and forgets its earlier ones
# A variant other than chess is labelled by Fairy-Stockfish
# (/usr/games/fairy-stockfish, `UCI_Variant NAME`), so this script needs
# NAME to be one of its variants too. For a game it does not know, train
# on the self-play's own scores instead (`fers-nnue OUT sp-*.txt -variant
# NAME ...`, docs/networks.md). The eleventh session's Capablanca run,
# from network 8:
#   git show 1d6ef2d:variants/nets/capablanca.nnue > net8.nnue
#   VARIANT=capablanca GAMES=500 SEED0=2001 \
#     tools/nnue-finetune.sh DIR 12 253149 7 8 net8.nnue
# The shipped chess network is the third generation, started from the
# second, which was started from the first (the default START's
# fine-tuned network):
#   git show 52da004:engine/nets/chess.nnue > gen1.nnue
#   SEED0=3001 tools/nnue-finetune.sh DIR 135 all 7 8 gen1.nnue  # the second
#   git show f19368d:engine/nets/chess.nnue > gen2.nnue
#   SEED0=4001 tools/nnue-finetune.sh DIR 135 all 7 8 gen2.nnue  # the third
#
# Needs python3, /usr/games/stockfish (15.1; Fairy-Stockfish for a variant)
# and release builds of fers-nnue:
#   cargo build --release -p fers-tools --bin fers-nnue
set -euo pipefail
dir=${1:?usage: tools/nnue-finetune.sh DIR [CHUNKS] [POSITIONS] [DEPTH] [EPOCHS] [START]}
chunks=${2:-135}
positions=${3:-all}
depth=${4:-7}
epochs=${5:-8}
start=${6:-}
root="$(cd "$(dirname "$0")/.." && pwd)"
[ -z "$start" ] || start="$(cd "$(dirname "$start")" && pwd)/$(basename "$start")"
variant=${VARIANT:-chess}
games=${GAMES:-100}
seed0=${SEED0:-1001}
holdout=${HOLDOUT:-0}
[ "$holdout" -lt "$chunks" ] || { echo "HOLDOUT=$holdout needs more than $holdout runs (CHUNKS=$chunks)" >&2; exit 1; }
train_runs=$((chunks - holdout))
vargs=()
label_vargs=()
if [ "$variant" != chess ]; then
    [ -n "$start" ] || { echo "VARIANT=$variant needs START, the network to start from" >&2; exit 1; }
    vfile=${VARIANTFILE:-$root/variants/examples.ini}
    vfile="$(cd "$(dirname "$vfile")" && pwd)/$(basename "$vfile")"
    vargs=(-variant "$variant" -variantfile "$vfile")
    label_vargs=(--variant "$variant")
fi
nnue="$root/target/release/fers-nnue"
[ -x "$nnue" ] || { echo "build fers-nnue first: cargo build --release -p fers-tools --bin fers-nnue" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"
rm -f start.nnue sp-*.txt all.fen use.fen held.fen l-*.txt h-*.txt ./*-ft.nnue SHA256SUMS
if [ -n "$start" ]; then
    cp "$start" start.nnue
else
    git -C "$root" show b9ce972:engine/nets/chess.nnue > start.nnue
fi

# 1. Self-play: fers with the starting network, two runs at a time.
for ((c = 0; c < chunks; c += 2)); do
    pids=()
    for s in $((seed0 + c)) $((seed0 + 1 + c)); do
        [ $((s - seed0)) -lt "$chunks" ] || continue
        "$nnue" -selfplay "sp-$s.txt" "${vargs[@]}" -games "$games" -nodes 1500 -random 8 \
            -seed "$s" -evalfile start.nnue & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
done

# 2. Each position once (board, side, castling, en passant), in seed order;
# the held-out runs' positions after the training runs', so that a position
# both reach is trained on.
for ((s = seed0; s < seed0 + chunks; s++)); do
    sed "s/^/$((s - seed0 < train_runs ? 0 : 1));/" "sp-$s.txt"
done |
    awk -F';' '{ split($2, a, " "); k = a[1] " " a[2] " " a[3] " " a[4];
                 if (!(k in seen)) { seen[k] = 1; print $1 ";" $2 } }' > tagged.fen
grep '^0;' tagged.fen | cut -d';' -f2 > all.fen
grep '^1;' tagged.fen | cut -d';' -f2 > held.fen || true
rm tagged.fen
if [ "$positions" = all ]; then cp all.fen use.fen; else head -n "$positions" all.fen > use.fen; fi

# 3. Stockfish's labels, two parts (then the held-out positions', two parts).
label() {
    python3 "$root/tools/py/label_positions.py" "$1" "$2-0.txt" "$depth" 0 2 "${label_vargs[@]}" & p0=$!
    python3 "$root/tools/py/label_positions.py" "$1" "$2-1.txt" "$depth" 1 2 "${label_vargs[@]}" & p1=$!
    wait "$p0"; wait "$p1"
}
label use.fen l
held_args=()
if [ "$holdout" -gt 0 ]; then
    label held.fen h
    cat h-0.txt h-1.txt > h-all.txt
    held_args=(-holdout h-all.txt)
fi

# 4. The starting network, trained further.
"$nnue" "$variant-ft.nnue" l-0.txt l-1.txt "${vargs[@]}" "${held_args[@]}" -init start.nnue \
    -epochs "$epochs" -lr 0.0002 -batch 16384 -seed 1 -threads 2 2> train.log

wc -l all.fen use.fen held.fen l-*.txt h-*.txt 2>/dev/null || true
sha256sum start.nnue all.fen use.fen l-*.txt "$variant-ft.nnue" | tee SHA256SUMS
[ "$holdout" -eq 0 ] || sha256sum held.fen h-all.txt | tee -a SHA256SUMS
tail -1 train.log
