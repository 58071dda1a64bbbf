#!/bin/sh
# expect.sh — runs a test program and checks how it ends and what it prints.
#   expect.sh fail REGEX cmd...     cmd must exit non-zero and print a line matching REGEX
#   expect.sh output REGEX cmd...   cmd must exit zero and print a line matching REGEX
# (REGEX is an extended regular expression; stdout and stderr are searched.)
mode=$1 regex=$2
shift 2
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
case $mode in
fail)   [ $status -ne 0 ] || { echo "expect.sh: exit status 0, wanted a failure"; exit 1; } ;;
output) [ $status -eq 0 ] || { echo "expect.sh: exit status $status, wanted 0"; exit 1; } ;;
*)      echo "expect.sh: unknown mode '$mode'"; exit 2 ;;
esac
printf '%s\n' "$out" | grep -Eq -- "$regex" || { echo "expect.sh: no line matches /$regex/"; exit 1; }
