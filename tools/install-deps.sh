#!/usr/bin/env bash
# Install the Debian packages ilan needs, only those missing. Silent when
# everything is already installed.
set -euo pipefail
# cmake gcc make: the build; libhwloc-dev: the machine model (src/topo/topo.c);
# libomp-dev: LLVM libomp, a runtime ilan bench compares with; python3-venv:
# the .venv of make venv; pkg-config: the install test builds with ilan.pc;
# g++ libtbb-dev: oneTBB, the task_group reference line of the fib benchmark
# (bench/reference/fib_tbb.cpp); libnuma-dev: mbind and move_pages (src/os/linux/numa.c).
pkgs=(cmake gcc make libhwloc-dev libomp-dev python3-venv pkg-config g++ libtbb-dev libnuma-dev)

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-deps: apt-get is not available; please install: ${missing[*]}" >&2
  exit 1
fi
sudo=
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: not root and no sudo; please install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
