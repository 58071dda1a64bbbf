// affinity_unbound_whatif.c - a what-if machine alone (HWLOC_SYNTHETIC, no
// binding variable) binds nothing either: the checks of
// affinity_unbound_default.c on a 64-core, 8-node model.
// ilan-test: threads=default,8
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1
#include "affinity_unbound_default.c"
