// mem_bubbles_memory.c - mem_bubbles.c under the memory bubble scheduler:
// the team of 3's attached memory is spread over its threads' nodes.
// ilan-test: threads=2 tsan env=HWLOC_SYNTHETIC=numa:2%20core:2%20pu:1;OMP_MAX_ACTIVE_LEVELS=2;ILAN_BUBBLES=memory;ILAN_REPORT=stderr
// ilan-test: expect-output: ^  bubble of parent thread 0 \(memory\): 3 threads, home node 0, 1 re-spread, .*, [1-9][0-9]* pages moved. nodes 0 0 1. memory 0:2 1:1$
#include "mem_bubbles.c"
