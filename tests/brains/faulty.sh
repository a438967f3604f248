#!/bin/sh
# A brain with one fault, named by its first argument:
#   exit      answers START, then exits when asked for a move
#   garbage   answers a move with "hello"
#   occupied  plays the cell the opponent just played
#   offboard  plays 99,99
#   refuse    answers a move with ERROR
#   slow      answers after 3 s (past any test's time and tolerance)
#   silent    never answers a move
#   flood     answers a move with MESSAGE and other lines, without end
#   stubborn  never answers a move, ignores SIGTERM, SIGHUP and SIGPIPE and
#             stops reading: it outlives a manager that dies (unless the
#             kernel ends it with the manager)
# It writes its process id to $FAULT_PIDFILE when that is set, so tests can
# check that nothing is left running.
mode=$1
[ -n "$FAULT_PIDFILE" ] && echo $$ > "$FAULT_PIDFILE"
move() {
    case "$mode" in
        exit) exit 0 ;;
        garbage) echo "hello" ;;
        occupied) echo "$1" ;;
        offboard) echo "99,99" ;;
        refuse) echo "ERROR I would rather not" ;;
        slow) sleep 3; echo "0,0" ;;
        silent) ;;
        flood) yes "$(printf 'MESSAGE busy\nthinking')" ;;
        stubborn) trap '' TERM HUP PIPE; while :; do sleep 1; done ;;
    esac
}
while IFS= read -r line; do
    line=$(printf '%s' "$line" | tr -d '\r')
    case "$line" in
        START*|RESTART) echo OK ;;
        BEGIN) move "7,7" ;;
        TURN*) move "${line#TURN }" ;;
        BOARD) while IFS= read -r l; do
                   l=$(printf '%s' "$l" | tr -d '\r')
                   [ "$l" = DONE ] && break
               done; move "7,7" ;;
        END) exit 0 ;;
        *) ;;
    esac
done
