#!/bin/sh
# A brain that attacks the program that runs it, named by its first argument:
#   escape   answers a move with terminal escape sequences (clear the
#            screen, set the window title)
#   flood    sends MESSAGE lines without end instead of a move
#   escapee  starts a process in a session of its own (setsid), which
#            leaves the brain's process group, writes that process's id
#            to $ESCAPEE_PIDFILE, then thinks for a long time
mode=$1
move() {
    case "$mode" in
        escape) printf '\033[2J\033]0;owned\007\033[31m7,7\r\n' ;;
        flood) yes "MESSAGE flood flood flood flood flood flood flood flood flood flood" ;;
        escapee)
            setsid sleep 300 </dev/null >/dev/null 2>&1 &
            echo $! > "$ESCAPEE_PIDFILE"
            sleep 300 ;;
    esac
}
while IFS= read -r line; do
    line=$(printf '%s' "$line" | tr -d '\r')
    case "$line" in
        START*|RESTART) echo OK ;;
        BEGIN) move ;;
        TURN*) move ;;
        BOARD) while IFS= read -r l; do
                   l=$(printf '%s' "$l" | tr -d '\r')
                   [ "$l" = DONE ] && break
               done; move ;;
        END) exit 0 ;;
        *) ;;
    esac
done
