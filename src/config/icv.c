/* icv.c — storage and defaults of the global ICVs. */
#include "config/icv.h"

struct icv_global icv_global = {
    .initial = {
        .nthreads = 1, /* replaced by the number of CPUs in config_read_env */
        .dyn = false,
        .run_sched = ICV_SCHED_DYNAMIC,
        .run_sched_chunk = 1,
        .thread_limit = 0xffffffffu,
        .max_active_levels = ILAN_SUPPORTED_ACTIVE_LEVELS,
        .bind = ICV_BIND_FALSE,
        .default_device = 0,
        .def_allocator = 1, /* omp_default_mem_alloc */
    },
    .nthreads_list_len = 0,
    .bind_list_len = 0,
    .wait_policy = -1,
    .spin_count = ILAN_SPIN_DEFAULT,
    .affinity_format = "level %L thread %i affinity %A",
};
