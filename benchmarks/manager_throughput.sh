#!/bin/sh
# Games a second of kxo-tui's arena against c-gomoku-cli's, both playing
# the same instant brains on 15x15 free-style, one game at a time, 100
# games a run; paired runs by farm-bench (the workplace's timer), A then B
# then A ... The brains: `benchmarks/instant_brain.c` (a random empty cell,
# answered at once: the managers' own cost shows), then `kxo-tui brain
# --engine random` (a brain that costs a little more).
#
#   sh benchmarks/manager_throughput.sh /path/to/c-gomoku-cli
#
# c-gomoku-cli from nkg114mc/c-gomoku-cli (src/, built with
#   make CXXFLAGS="-DNDEBUG -std=c++17 -O2 -fpermissive -pthread -m64 \
#        -DIS_64BIT -w -include cstring"
# on a current g++, whose headers no longer bring in <cstring>).
set -eu
cli=${1:?give the path of c-gomoku-cli}
cd "$(dirname "$0")/.."
cargo build --release --quiet
kxo=$PWD/target/release/kxo-tui
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
cc -O2 -o "$data/instant" benchmarks/instant_brain.c
for brain in "$data/instant" "$kxo brain --engine random --seed"; do
    # Each side as a script of its own: farm-bench runs commands without a shell.
    cat > "$data/theirs.sh" <<END
exec $cli -engine cmd="$brain 1" name=a -engine cmd="$brain 2" name=b \\
  -each tc=10 -rule 0 -boardsize 15 -games 100 -concurrency 1
END
    for options in "[restart=off]" ""; do
        cat > "$data/ours.sh" <<END
XDG_DATA_HOME=$data exec $kxo arena --gomoku --openings none --games 100 --jobs 1 \\
  --think-ms 10000 --engine "a$options=brain:$brain 1" \\
  --engine "b$options=brain:$brain 2"
END
        echo "== $brain: kxo-tui arena, brains ${options:-restarted every game}, against c-gomoku-cli"
        farm-bench -n 10 --timeout 600 --vs "sh $data/theirs.sh" -- sh "$data/ours.sh"
    done
done
