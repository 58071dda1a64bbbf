// ilan_placement_full.c - ilan_placement.c under ILAN_STEAL_POLICY=full: the
// strict part of each node's tasks still runs on that node.
// ilan-test: threads=8 tsan env=HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;OMP_PROC_BIND=close;ILAN_TASKLOOP=numa;ILAN_STEAL_POLICY=full
#include "ilan_placement.c"
