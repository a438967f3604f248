#!/bin/sh
# A brain that plays legal moves slowly: the first empty cell, after
# SLOW_BRAIN_MS milliseconds (default 1500); its first move of a game
# after SLOW_FIRST_MS (default the same), as an engine that builds its
# tables on its first search. It remembers the stones it
# was told of and plays left to right, top to bottom. Each command it
# reads is appended to $BRAIN_LOG when that is set; with $BRAIN_STAMPS
# set, the time (ns) it answers and reads each line is appended there.
# With $SLOW_NOISE set, before each move it writes lines that answer
# nothing, as PentaZen does (its depth as a raw byte, here a line feed, a
# carriage return and a control byte, splitting its message), and an
# empty line. With $SLOW_UNTIL set, it answers no move before that file
# exists (a test decides when, not a clock). With $SLOW_START_MS set, it
# answers START that many milliseconds late (an engine loading its
# weights). With $SLOW_PWD set, it writes the folder it runs in there.
# With $SLOW_HOG_MB set, it holds that many MB from its first move on.
# With $SLOW_PONDER set, from its first answer on it thinks all the time,
# its turn or not: a loop in its process group writes the time (ns) there
# every 10 ms.
delay=$(awk "BEGIN { print ${SLOW_BRAIN_MS:-1500} / 1000 }")
first_delay=$(awk "BEGIN { print ${SLOW_FIRST_MS:-${SLOW_BRAIN_MS:-1500}} / 1000 }")
first=1
size=15
taken=" "
play() {
    y=0
    while [ $y -lt $size ]; do
        x=0
        while [ $x -lt $size ]; do
            case "$taken" in *" $x,$y "*) ;; *)
                taken="$taken$x,$y "
                if [ $first = 1 ]; then sleep "$first_delay"; else sleep "$delay"; fi
                if [ -n "$SLOW_HOG_MB" ] && [ -z "$hog" ]; then
                    hog=$(head -c $((SLOW_HOG_MB * 1048576)) /dev/zero | tr '\0' x)
                fi
                if [ -n "$SLOW_UNTIL" ]; then
                    while [ ! -e "$SLOW_UNTIL" ]; do sleep 0.02; done
                fi
                first=0
                if [ -n "$SLOW_NOISE" ]; then
                    printf 'MESSAGE dep \n-\025 ev -222 nd 207k tm 229 sp 906\n'
                    printf 'MESSAGE dep \r-\021 ev 8 nd 269k tm 252\n\n'
                    echo "thinking about $x,$y"
                fi
                echo "MESSAGE slow brain plays $x,$y"
                [ -n "$BRAIN_STAMPS" ] && echo "answer $(date +%s%N)" >> "$BRAIN_STAMPS"
                echo "$x,$y"
                if [ -n "$SLOW_PONDER" ] && [ -z "$pondering" ]; then
                    pondering=1
                    ( while :; do date +%s%N >> "$SLOW_PONDER"; sleep 0.01; done ) &
                fi
                return ;;
            esac
            x=$((x + 1))
        done
        y=$((y + 1))
    done
}
while IFS= read -r line; do
    [ -n "$BRAIN_STAMPS" ] && echo "got $(date +%s%N) $line" >> "$BRAIN_STAMPS"
    line=$(printf '%s' "$line" | tr -d '\r')
    [ -n "$BRAIN_LOG" ] && echo "$line" >> "$BRAIN_LOG"
    case "$line" in
        START*) size=${line#START }; taken=" "; first=1
                [ -n "$SLOW_PWD" ] && pwd -P > "$SLOW_PWD"
                [ -n "$SLOW_START_MS" ] && sleep "$(awk "BEGIN { print $SLOW_START_MS / 1000 }")"
                echo OK ;;
        RESTART) taken=" "; first=1; echo OK ;;
        BEGIN) play ;;
        TURN*) taken="$taken${line#TURN } "; play ;;
        BOARD) while IFS= read -r l; do
                   l=$(printf '%s' "$l" | tr -d '\r')
                   [ -n "$BRAIN_LOG" ] && echo "$l" >> "$BRAIN_LOG"
                   [ "$l" = DONE ] && break
                   taken="$taken${l%,*} "
               done; play ;;
        INFO*) ;;
        END) exit 0 ;;
        ABOUT) echo 'name="slow", version="1", author="tests", country="-"' ;;
        *) echo "UNKNOWN $line" ;;
    esac
done
