#!/bin/sh
# A brain that reads BOARD as PentaZen does: the stones alternate colours
# in the order given, the first player's first. It checks that the fields
# agree with that order and answers ERROR if they do not (a board sent
# in another order scrambles such a brain's position); otherwise it plays
# the first empty cell, left to right, top to bottom.
size=15
taken=" "
play() {
    y=0
    while [ $y -lt $size ]; do
        x=0
        while [ $x -lt $size ]; do
            case "$taken" in *" $x,$y "*) ;; *)
                taken="$taken$x,$y "
                echo "$x,$y"
                return ;;
            esac
            x=$((x + 1))
        done
        y=$((y + 1))
    done
}
while IFS= read -r line; do
    line=$(printf '%s' "$line" | tr -d '\r')
    case "$line" in
        START*) size=${line#START }; taken=" "; echo OK ;;
        RESTART) taken=" "; echo OK ;;
        BEGIN) play ;;
        TURN*) taken="$taken${line#TURN } "; play ;;
        BOARD)
            fields=""
            count=0
            while IFS= read -r l; do
                l=$(printf '%s' "$l" | tr -d '\r')
                [ "$l" = DONE ] && break
                xy=${l%,*}
                taken="$taken$xy "
                fields="$fields ${l##*,}"
                count=$((count + 1))
            done
            # The brain moves next: with an even count it is the first player.
            mine_even=$(( count % 2 == 0 ))
            i=0
            ok=1
            for f in $fields; do
                even=$(( i % 2 == 0 ))
                if [ "$even" = "$mine_even" ]; then want=1; else want=2; fi
                [ "$f" = "$want" ] || ok=0
                i=$((i + 1))
            done
            if [ $ok = 1 ]; then play; else echo "ERROR the board's colours do not alternate"; fi ;;
        END) exit 0 ;;
        *) ;;
    esac
done
