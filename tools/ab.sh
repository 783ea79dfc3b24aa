#!/usr/bin/env bash
# Two fers builds (or networks, or options) against each other at fixed
# nodes a move in one variant, with the settings of tools/vs-fsf.sh
# (tools/match-settings.sh).
#
#   A=/tmp/new AOPT=option.EvalFile=n.nnue B=target/release/fers \
#   VAR=almost NODES=20000 GAMES=300 SRAND=9803 OUT=ab.pgn tools/ab.sh
#
# A, B: the binaries (names "A" and "B" in the PGN; B defaults to the
# repository's target/release/fers); AOPT, BOPT: more engine keys for
# each (split at spaces, as FERSOPT in tools/vs-fsf.sh); NODES (default
# 20000); GAMES (default 300, two an opening); SRAND (default 1); OUT
# (default ab-VAR.pgn); OPENINGS, CONC as in tools/vs-fsf.sh; AENV,
# BENV: `KEY=VALUE` words put in that engine's environment alone (e.g.
# AENV="CX=3" for the switch of an experimental build, where B is the
# same build without it).
set -euo pipefail
VAR=${VAR:?set VAR}
A=${A:?set A}
ROUNDS=$((${GAMES:-300} / 2))
OUT=${OUT:-ab-$VAR.pgn}
source "$(dirname "$0")/match-settings.sh"
B=${B:-$ROOT/target/release/fers}
mapfile -t A_KEYS < <(launch "$A" "${AENV:-}")
mapfile -t B_KEYS < <(launch "$B" "${BENV:-}")
# shellcheck disable=SC2086
"$ROOT"/target/release/fers-match \
  -engine "${A_KEYS[@]}" name=A ${AOPT:-} \
  -engine "${B_KEYS[@]}" name=B ${BOPT:-} \
  -each option.Hash=16 nodes="${NODES:-20000}" "${COMMON[@]}"
