#!/usr/bin/env bash
# Check that libgomp.so.1 exports every gcc 12 libgomp symbol (OpenMP + GOMP,
# not OpenACC or plugin) at the same version, e.g. "GOMP_4.0 GOMP_parallel"
# and the compat "(OMP_1.0) omp_init_lock". Prints the missing ones.
# Usage: tools/check-abi.sh [path/to/libgomp.so.1]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$root/build/lib/libgomp.so.1}
ref=$root/tools/gcc12-libgomp-symbols.txt
[[ -f $lib ]] || { echo "check-abi: $lib not found (build first)" >&2; exit 2; }

want=$(grep -Ev '^\S+\s+(GOACC_|acc_|GOMP_PLUGIN_)|^\(?(OACC|GOACC|GOMP_PLUGIN)' "$ref" \
       | awk 'NF == 2 {print $1, $2}' | sort -u)
# objdump -T: defined symbols end with "<version> <name>"; skip undefined ones.
have=$(objdump -T "$lib" | awk '/^[0-9a-f]+ / && $0 !~ /\*UND\*/ && NF >= 2 {print $(NF-1), $NF}' | sort -u)

missing=$(comm -23 <(echo "$want") <(echo "$have"))
if [[ -n $missing ]]; then
  n=$(echo "$missing" | wc -l)
  echo "check-abi: $n symbol(s) missing from $lib (version symbol):"
  echo "$missing" | sed 's/^/  /'
  exit 1
fi
echo "check-abi: all $(echo "$want" | wc -l) gcc 12 libgomp symbols exported"
