#!/usr/bin/env bash
# install-mpi.sh - install Debian's Open MPI (mpicc, mpirun) when it is missing.
# Used by the hybrid MPI test (tests/mpi/run.sh), not by `make deps`: only that
# test needs it. Exit status: 0 when Open MPI is (now) installed, 1 when it is
# missing and cannot be installed (no apt-get, not root and no sudo, no network).
set -uo pipefail
pkgs=(openmpi-bin libopenmpi-dev)

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]] && command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  exit 0
fi
[[ ${#missing[@]} -eq 0 ]] && missing=("${pkgs[@]}")

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-mpi: apt-get is not available; please install Open MPI (${missing[*]})" >&2
  exit 1
fi
sudo=
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1 || ! sudo -n true 2>/dev/null; then
    echo "install-mpi: not root and no password-less sudo; please install: ${missing[*]}" >&2
    exit 1
  fi
  sudo="sudo -n"
fi
echo "install-mpi: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Another apt (a parallel test run, unattended upgrades) may hold the lock:
# wait for it rather than fail.
lock=(-o DPkg::Lock::Timeout=300)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! $sudo apt-get install -y -qq --no-install-recommends "${lock[@]}" "${missing[@]}" >"$log" 2>&1; then
  $sudo apt-get update -qq "${lock[@]}" >>"$log" 2>&1 || true
  if ! $sudo apt-get install -y -qq --no-install-recommends "${lock[@]}" "${missing[@]}" >>"$log" 2>&1; then
    tail -n 5 "$log" >&2
    echo "install-mpi: apt-get could not install ${missing[*]} (no network?)" >&2
    exit 1
  fi
fi
command -v mpicc >/dev/null && command -v mpirun >/dev/null || {
  echo "install-mpi: ${missing[*]} installed but mpicc/mpirun not found" >&2
  exit 1
}
