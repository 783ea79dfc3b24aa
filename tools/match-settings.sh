# Sourced by tools/vs-fsf.sh and tools/ab.sh: the settings their matches
# share. Sets ROOT (the repository), makes the openings file OPENINGS
# (default /tmp/VAR4.epd: 1000 random 4-ply openings of VAR, seed 1) when
# it is missing (tools/openings/VAR-balanced.epd holds those of them that
# Fairy-Stockfish 11.1 finds level, tools/py/balanced_openings.py), and
# puts in COMMON the fers-match flags after the engines: Hash 16, the variant, two games an opening with colours
# swapped (ROUNDS openings, CONC at a time, default 2), the openings in
# the order of SRAND (default 1), resign at 1000 cp over 5 moves, draw
# adjudication from move 60, the PGN to OUT. `launch BIN ENV` prints
# the fers-match engine keys that start BIN with the settings ENV
# (`KEY=VALUE` words, e.g. an experimental build's switches) in its
# environment alone, one a line.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VAR=${VAR:?set VAR}
OPENINGS=${OPENINGS:-/tmp/${VAR}4.epd}
if [ ! -s "$OPENINGS" ]; then
  "$ROOT"/target/release/fers-book openings --count 1000 --plies 4 --seed 1 \
    --variant "$VAR" --variant-file "$ROOT"/variants/examples.ini -o "$OPENINGS"
fi
launch() {
  if [ -z "${2:-}" ]; then
    echo "cmd=$1"
    return
  fi
  echo "cmd=env"
  local kv words
  read -ra words <<< "$2" # split at spaces, no globbing
  for kv in "${words[@]}"; do echo "arg=$kv"; done
  echo "arg=$1"
}
COMMON=(
  -variant "$VAR" -variantfile "$ROOT"/variants/examples.ini
  -games 2 -rounds "${ROUNDS:?set ROUNDS}" -repeat -concurrency "${CONC:-2}"
  -openings file="$OPENINGS" format=epd order=random -srand "${SRAND:-1}"
  -resign movecount=5 score=1000 -draw movenumber=60 movecount=8 score=10
  -ratinginterval 0 -pgnout "${OUT:?set OUT}"
)
