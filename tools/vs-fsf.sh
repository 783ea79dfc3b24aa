#!/usr/bin/env bash
# fers against Fairy-Stockfish 11.1 (/usr/games/fairy-stockfish) in one
# variant, with the settings of tools/match-settings.sh (random 4-ply
# openings, Hash 16, two games an opening with colours swapped, resign at
# 1000 cp over 5 moves, draw adjudication from move 60). Prints the
# runner's result lines; the PGN goes to OUT.
#
#   VAR=almost ROUNDS=50 SRAND=7003 OUT=a.pgn tools/vs-fsf.sh
#
# Environment:
#   VAR       the variant (capablanca, embassy, almost, ...; from
#             variants/examples.ini unless built in)
#   ROUNDS    openings played (2 games each; default 50)
#   SRAND     the openings' seed (default 1)
#   OUT       the PGN file (default vs-fsf-VAR.pgn)
#   BIN       fers's binary (default the repository's target/release/fers)
#   FERSENV   `KEY=VALUE` words put in fers's environment alone (e.g.
#             an experimental build's switches: FERSENV="CX=3")
#   FERSOPT   more engine keys for fers, e.g. "option.EvalFile=net.nnue",
#             split at spaces (an option whose name has a space, such as
#             `Use NNUE`, needs fers-match called directly)
#   TC        the clock (default 10+0.1); or FN/SN: fixed nodes a move for
#             fers and Fairy-Stockfish (both needed; the clock is then off);
#             or FD/SD: a fixed depth for each; or ST: the same fixed
#             time a move for both, in seconds (`go movetime`)
#   OPENINGS  the openings file (default /tmp/VAR4.epd, made when missing;
#             tools/openings/VAR-balanced.epd: the level ones among them)
#   CONC      games at a time (default 2)
set -euo pipefail
VAR=${VAR:?set VAR}
ROUNDS=${ROUNDS:-50}
OUT=${OUT:-vs-fsf-$VAR.pgn}
source "$(dirname "$0")/match-settings.sh"
BIN=${BIN:-$ROOT/target/release/fers}
if [ -n "${FN:-}" ]; then
  LIMIT_F="nodes=${FN}"; LIMIT_S="nodes=${SN:?set SN with FN}"; EACH=""
elif [ -n "${FD:-}" ]; then
  LIMIT_F="depth=${FD}"; LIMIT_S="depth=${SD:?set SD with FD}"; EACH=""
elif [ -n "${ST:-}" ]; then
  LIMIT_F=""; LIMIT_S=""; EACH="st=${ST} timemargin=200"
else
  LIMIT_F=""; LIMIT_S=""; EACH="tc=${TC:-10+0.1} timemargin=200"
fi
mapfile -t FERS_KEYS < <(launch "$BIN" "${FERSENV:-}")
# shellcheck disable=SC2086
"$ROOT"/target/release/fers-match \
  -engine "${FERS_KEYS[@]}" name=fers $LIMIT_F ${FERSOPT:-} \
  -engine cmd=/usr/games/fairy-stockfish name=fsf $LIMIT_S \
  -each option.Hash=16 $EACH "${COMMON[@]}"
