#!/bin/sh
# A GTP engine for tests (no Go program need be installed): it plays the
# moves of its first argument in turn (space-separated, e.g. "C3 D4"), then
# passes; asked for dead stones it names those of its second argument, one
# per line, as GNU Go does (a multi-line answer); asked for its count
# (final_score) it gives its third argument.
moves=$1
dead=$2
score=$3
while IFS= read -r line; do
    set -- $line
    id=""
    case $1 in [0-9]*) id=$1; shift ;; esac
    case $1 in
    protocol_version) printf '=%s 2\n\n' "$id" ;;
    name) printf '=%s mock\n\n' "$id" ;;
    known_command) printf '=%s false\n\n' "$id" ;;
    genmove)
        set -- $moves
        if [ $# -gt 0 ]; then
            printf '=%s %s\n\n' "$id" "$1"
            shift
            moves="$*"
        else
            printf '=%s pass\n\n' "$id"
        fi
        ;;
    final_status_list)
        printf '=%s' "$id"
        first=1
        for v in $dead; do
            if [ $first = 1 ]; then printf ' %s\n' "$v"; first=0; else printf '%s\n' "$v"; fi
        done
        [ $first = 1 ] && printf '\n'
        printf '\n'
        ;;
    final_score) printf '=%s %s\n\n' "$id" "$score" ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    *) printf '=%s\n\n' "$id" ;;
    esac
done
