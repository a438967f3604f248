#!/bin/sh
# A GTP engine with one fault, named by its first argument: the modes of
# faulty.sh (the Gomoku brain's), each the way a Go engine would have it:
#   exit      sets up, then exits when asked for a move
#   garbage   answers genmove with "hello", not a GTP answer
#   occupied  plays the point the opponent just played
#   offboard  plays Z99
#   refuse    answers genmove with "? I would rather not"
#   slow      answers after 3 s (past any test's time and tolerance)
#   silent    never answers genmove
#   flood     answers genmove with an answer of lines without end
#   stubborn  never answers genmove, ignores SIGTERM, SIGHUP and SIGPIPE
#             and stops reading
# It writes its process id to $FAULT_PIDFILE when that is set.
mode=$1
[ -n "$FAULT_PIDFILE" ] && echo $$ > "$FAULT_PIDFILE"
last=D4
move() {
    case "$mode" in
        exit) exit 0 ;;
        garbage) echo "hello" ;;
        occupied) printf '=%s %s\n\n' "$1" "$last" ;;
        offboard) printf '=%s Z99\n\n' "$1" ;;
        refuse) printf '?%s I would rather not\n\n' "$1" ;;
        slow) sleep 3; printf '=%s pass\n\n' "$1" ;;
        silent) ;;
        flood) printf '=%s ' "$1"; yes thinking ;;
        stubborn) trap '' TERM HUP PIPE; while :; do sleep 1; done ;;
    esac
}
while IFS= read -r line; do
    set -- $(printf '%s' "$line" | tr -d '\r')
    id=""
    case $1 in [0-9]*) id=$1; shift ;; esac
    case $1 in
    protocol_version) printf '=%s 2\n\n' "$id" ;;
    known_command) printf '=%s false\n\n' "$id" ;;
    play) last=$3; printf '=%s\n\n' "$id" ;;
    genmove) move "$id" ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    *) printf '=%s\n\n' "$id" ;;
    esac
done
