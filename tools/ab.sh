#!/usr/bin/env bash
# Two fers builds (or networks, or options) against each other at fixed
# nodes a move in one variant, on the openings of tools/vs-fsf.sh.
#
#   A=/tmp/new AOPT=option.EvalFile=n.nnue B=target/release/fers \
#   VAR=almost NODES=20000 GAMES=300 SRAND=9803 OUT=ab.pgn tools/ab.sh
#
# A, B: the binaries (names "A" and "B" in the PGN); AOPT, BOPT: more
# engine keys for each; NODES (default 20000); GAMES (default 300, two an
# opening); SRAND (default 1); OPENINGS, CONC as in tools/vs-fsf.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VAR=${VAR:?set VAR}
A=${A:?set A}
B=${B:-$ROOT/target/release/fers}
NODES=${NODES:-20000}
GAMES=${GAMES:-300}
SRAND=${SRAND:-1}
OUT=${OUT:-ab-$VAR.pgn}
OPENINGS=${OPENINGS:-/tmp/${VAR}4.epd}
CONC=${CONC:-2}
if [ ! -s "$OPENINGS" ]; then
  "$ROOT"/target/release/fers-book openings --count 1000 --plies 4 --seed 1 \
    --variant "$VAR" --variant-file "$ROOT"/variants/examples.ini -o "$OPENINGS"
fi
# shellcheck disable=SC2086
"$ROOT"/target/release/fers-match \
  -engine cmd="$A" name=A ${AOPT:-} \
  -engine cmd="$B" name=B ${BOPT:-} \
  -each option.Hash=16 nodes="$NODES" \
  -variant "$VAR" -variantfile "$ROOT"/variants/examples.ini \
  -games 2 -rounds $((GAMES / 2)) -repeat -concurrency "$CONC" \
  -openings file="$OPENINGS" format=epd order=random -srand "$SRAND" \
  -resign movecount=5 score=1000 -draw movenumber=60 movecount=8 score=10 \
  -ratinginterval 0 -pgnout "$OUT"
