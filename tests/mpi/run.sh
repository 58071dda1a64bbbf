#!/usr/bin/env bash
# run.sh - the hybrid MPI test (ctest mpi.hybrid_bind).
#   run.sh LIBDIR OUTDIR
# Installs Debian's Open MPI if it is missing (tools/install-mpi.sh), builds
# hybrid_bind.c with mpicc -fopenmp, and runs two ranks bound one per core
# on ilan (LD_LIBRARY_PATH=LIBDIR), OMP_NUM_THREADS=2 each. Exit status 77
# (ctest SKIP_RETURN_CODE) when Open MPI cannot be installed or the machine
# has fewer than 2 CPUs; otherwise hybrid_bind's verdict.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
libdir=${1:?usage: run.sh LIBDIR OUTDIR}
outdir=${2:?usage: run.sh LIBDIR OUTDIR}
mkdir -p "$outdir"

if ! "$root/tools/install-mpi.sh"; then
  echo "SKIP: Open MPI is not installed and could not be installed (see above)"
  exit 77
fi
ncpus=$(nproc)
if [[ $ncpus -lt 2 ]]; then
  echo "SKIP: $ncpus CPU available; the test binds 2 ranks to 2 cores"
  exit 77
fi

exe=$outdir/hybrid_bind
# The program links against the system libgomp, as any user program; ilan is
# swapped in at run time through LD_LIBRARY_PATH.
mpicc -fopenmp -O2 -g -Wall -o "$exe" "$here/hybrid_bind.c" -ldl || exit 1

# Open MPI refuses to run as root unless told; a container has no network
# beyond loopback and may forbid the single-copy (CMA) mechanism.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
unset HWLOC_SYNTHETIC HWLOC_XMLFILE OMP_PLACES OMP_PROC_BIND
extra=()
[[ $(id -u) -eq 0 ]] && extra+=(--allow-run-as-root)
set -x
timeout 300 mpirun "${extra[@]}" -np 2 --bind-to core --map-by core \
  -x LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" -x OMP_NUM_THREADS=2 \
  ${ILAN_TEST_ANY_RUNTIME:+-x ILAN_TEST_ANY_RUNTIME} \
  "$exe"
