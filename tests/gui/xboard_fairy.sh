#!/usr/bin/env bash
# XBoard (Debian's xboard) under Xvfb plays one game between two fers
# engines on an engine-defined fairy variant (fers-fairy.ini beside this
# script), and screenshots the board: one shortly after the start (the
# fairy pieces on the board), one at the end.
#
# Usage: tests/gui/xboard_fairy.sh FERS_BINARY [OUT_DIR] [SECONDS_PER_GAME]
# (FERS_XBOARD_VARIANT and FERS_XBOARD_INI choose another variant and file;
# FERS_XBOARD_ARGS adds XBoard options, e.g. "-testLegality false" for the
# games fers tells XBoard it cannot check: XBoard 4.9 forfeits an engine
# whose move its own generator does not know, and CECP has no command for
# the engine to switch that test off.)
# Needs: xboard, Xvfb, xwd (x11-apps), convert (imagemagick); .ci/run
# installs them. Writes OUT_DIR/{opening.png,final.png,game.pgn,
# xboard.debug}. Exit status 0 when the game ended with a result, no move
# was refused by XBoard, and both screenshots exist.
set -euo pipefail
FERS=$(realpath "${1:?usage: xboard_fairy.sh FERS_BINARY [OUT_DIR] [SECONDS]}")
OUT=$(realpath -m "${2:-/tmp/fers-xboard}")
SECONDS_PER_GAME=${3:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
INI=$(realpath "${FERS_XBOARD_INI:-$HERE/fers-fairy.ini}")
VARIANT=${FERS_XBOARD_VARIANT:-fers-fairy}
XBOARD=$(command -v xboard || echo /usr/games/xboard)
# Debian's convert; a stand-in elsewhere on PATH may not read XWD.
CONVERT=$( [ -x /usr/bin/convert ] && echo /usr/bin/convert || command -v convert )
mkdir -p "$OUT"
rm -f "$OUT"/{opening.png,final.png,game.pgn,xboard.debug,display}

# A free display number, chosen by Xvfb itself.
Xvfb -displayfd 3 -screen 0 1024x768x24 3>"$OUT/display" >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
XBOARD_PID=
cleanup() {
    [ -n "$XBOARD_PID" ] && kill "$XBOARD_PID" 2>/dev/null || true
    kill "$XVFB_PID" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$OUT/display" ] && break; sleep 0.1; done
export DISPLAY=":$(tr -d '\n' <"$OUT/display")"

# Cropped to the XBoard window (the rest of the screen is black).
shot() { xwd -root -silent | "$CONVERT" xwd:- -trim +repage "$1"; }

# Two machines (match mode, one game), the variant by its fers name; the
# engines load the variant file at start (`fers load FILE`), so that it is
# in their `feature variants` list.
"$XBOARD" -fcp "$FERS load $INI" -scp "$FERS load $INI" -fd "$OUT" -sd "$OUT" \
    -variant "$VARIANT" -matchMode true -matchGames 1 \
    -tc "0:$SECONDS_PER_GAME" -inc 0 -boardSize Medium \
    -saveGameFile "$OUT/game.pgn" -debugMode true -nameOfDebugFile "$OUT/xboard.debug" \
    ${FERS_XBOARD_ARGS:-} >"$OUT/xboard.log" 2>&1 &
XBOARD_PID=$!

sleep 5
shot "$OUT/opening.png"
# The game ends within both clocks (plus start-up); XBoard then writes the PGN.
for _ in $(seq $((SECONDS_PER_GAME * 2 * 10 + 300))); do
    [ -s "$OUT/game.pgn" ] && grep -q '^\[Result "[^*]' "$OUT/game.pgn" && break
    sleep 0.1
done
sleep 1
shot "$OUT/final.png"

fail() { echo "FAIL: $*" >&2; exit 1; }
grep -q '^\[Result "[^*]' "$OUT/game.pgn" 2>/dev/null || fail "no finished game in $OUT/game.pgn"
if grep -qi "illegal\|forfeit" "$OUT/xboard.debug"; then
    grep -i "illegal\|forfeit" "$OUT/xboard.debug" | head -5 >&2
    fail "XBoard refused a move (see $OUT/xboard.debug)"
fi
grep -q '<first : setup (' "$OUT/xboard.debug" || fail "fers sent no setup line"
if [ "$VARIANT" = fers-fairy ]; then
    grep -q '<first : piece A& BN' "$OUT/xboard.debug" || fail "fers sent no piece line for the archbishop"
fi
moves=$(grep -c '<first : move \|<second: move ' "$OUT/xboard.debug" || true)
result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$OUT/game.pgn")
echo "OK: $moves moves, result $result; screenshots $OUT/opening.png $OUT/final.png"
