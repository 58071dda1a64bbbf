#!/bin/sh
# hang-catch.sh — runs a program many times and, when a run hangs, saves every thread's stack (gdb) before killing it.
#
#   tools/hang-catch.sh RUNS SECONDS OUT.txt -- PROGRAM ARGS...
#
# The environment passes through (LD_LIBRARY_PATH, OMP_NUM_THREADS, ...).
# A run counts as hung when it is still alive after SECONDS. Exit status:
# 0 when no run hung or failed, 1 on a hang (stacks in OUT.txt), 2 on a
# failed run (its status and output are printed).
set -u
[ $# -ge 5 ] && [ "$4" = "--" ] || { echo "usage: $0 RUNS SECONDS OUT.txt -- PROGRAM ARGS..." >&2; exit 64; }
runs=$1 limit=$2 out=$3
shift 4
command -v gdb >/dev/null || { echo "$0: gdb is needed (apt-get install gdb)" >&2; exit 64; }
log=$(mktemp)
i=1
while [ "$i" -le "$runs" ]; do
    "$@" >"$log" 2>&1 &
    pid=$!
    t=0
    while kill -0 "$pid" 2>/dev/null && [ "$t" -lt $((limit * 10)) ]; do
        sleep 0.1
        t=$((t + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        gdb -p "$pid" -batch -ex "thread apply all bt 16" >"$out" 2>&1
        kill -9 "$pid"
        echo "run $i hung after ${limit}s: stacks in $out"
        rm -f "$log"
        exit 1
    fi
    if ! wait "$pid"; then
        echo "run $i failed:"
        cat "$log"
        rm -f "$log"
        exit 2
    fi
    i=$((i + 1))
done
rm -f "$log"
echo "$runs runs, none hung"
