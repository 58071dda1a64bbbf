// ilan_moldability_unbound.c - ilan_moldability.c with unbound threads
// (OMP_PROC_BIND unset, as by default) on a what-if machine of two one-core
// nodes: the groups come from the CPUs the threads run on, range launches
// follow the CPU a runner is on, and the ilan mode still explores two
// workers and one and settles; the numa mode explores nothing.
// ilan-test: threads=2 modes=ilan,numa,ws env=HWLOC_SYNTHETIC=numa:2%20core:1%20pu:1
#include "ilan_moldability.c"
