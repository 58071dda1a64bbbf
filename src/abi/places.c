/* places.c — the place-query routines (omp_get_*place*) and ilan's NUMA queries, C and Fortran. */
#include <stdint.h>
#include "abi/export.h"
#include "core/thread.h"
#include "topo/places.h"
#include "topo/topo.h"

/*
 * Answers come from the process's place list (topo/places.c) and the
 * calling thread's assignment (topo/bind.c). A thread that is not bound
 * (OMP_PROC_BIND=false, or the initial thread before its first region) has
 * place -1 and, as in libgomp, the whole list as its partition.
 */

/* Places of place p, or NULL when p is not a place number. */
static const int *place_cpus(int p, int *n)
{
    if (p < 0 || (unsigned)p >= places.os.n)
        return NULL;
    *n = (int)(places.os.first[p + 1] - places.os.first[p]);
    return places.os.cpus + places.os.first[p];
}

/* The calling thread's partition. */
static void partition_of(const struct ilan_thread *ts, int *off, int *len)
{
    *off = ts->bind.part_len ? ts->bind.part_off : 0;
    *len = ts->bind.part_len ? ts->bind.part_len : (int)places.os.n;
}

ILAN_EXPORT int omp_get_num_places(void)
{
    thread_self();
    return (int)places.os.n;
}

ILAN_EXPORT int omp_get_place_num_procs(int place_num)
{
    int n = 0;
    thread_self();
    return place_cpus(place_num, &n) ? n : 0;
}

ILAN_EXPORT void omp_get_place_proc_ids(int place_num, int *ids)
{
    int n = 0;
    const int *cpus = place_cpus(place_num, &n);
    for (int i = 0; cpus && ids && i < n; i++)
        ids[i] = cpus[i];
}

ILAN_EXPORT int omp_get_place_num(void)
{
    return thread_self()->bind.place;
}

ILAN_EXPORT int omp_get_partition_num_places(void)
{
    int off, len;
    partition_of(thread_self(), &off, &len);
    return len;
}

ILAN_EXPORT void omp_get_partition_place_nums(int *place_nums)
{
    int off, len;
    partition_of(thread_self(), &off, &len);
    for (int i = 0; place_nums && i < len; i++)
        place_nums[i] = off + i;
}

/* ---- ilan's own (include/ilan.h) ------------------------------------------ */

ILAN_EXPORT int ilan_get_num_numa_nodes(void)
{
    thread_self();
    return topo_num_nodes();
}

ILAN_EXPORT int ilan_get_place_node(int place)
{
    thread_self();
    return place >= 0 && (unsigned)place < places.os.n ? places.node[place] : -1;
}

ILAN_EXPORT int ilan_get_numa_node_num(void)
{
    return ilan_get_place_node(thread_self()->bind.place);
}

ILAN_EXPORT int ilan_get_numa_distance(int a, int b)
{
    thread_self();
    return topo_distance(a, b);
}

/* ---- Fortran bindings (arguments by reference; _8_: 8-byte integers) ------ */

ILAN_EXPORT int32_t omp_get_num_places_(void) { return omp_get_num_places(); }
ILAN_EXPORT int32_t omp_get_place_num_(void) { return omp_get_place_num(); }
ILAN_EXPORT int32_t omp_get_partition_num_places_(void) { return omp_get_partition_num_places(); }
ILAN_EXPORT int32_t omp_get_place_num_procs_(const int32_t *p) { return omp_get_place_num_procs(*p); }

ILAN_EXPORT int32_t omp_get_place_num_procs_8_(const int64_t *p)
{
    return *p < INT32_MIN || *p > INT32_MAX ? 0 : omp_get_place_num_procs((int)*p);
}

ILAN_EXPORT void omp_get_place_proc_ids_(const int32_t *p, int32_t *ids)
{
    omp_get_place_proc_ids(*p, ids); /* int32_t is int */
}

ILAN_EXPORT void omp_get_place_proc_ids_8_(const int64_t *p, int64_t *ids)
{
    int n = 0;
    const int *cpus = *p < INT32_MIN || *p > INT32_MAX ? NULL : place_cpus((int)*p, &n);
    for (int i = 0; cpus && i < n; i++)
        ids[i] = cpus[i];
}

ILAN_EXPORT void omp_get_partition_place_nums_(int32_t *nums)
{
    omp_get_partition_place_nums(nums);
}

ILAN_EXPORT void omp_get_partition_place_nums_8_(int64_t *nums)
{
    int off, len;
    partition_of(thread_self(), &off, &len);
    for (int i = 0; i < len; i++)
        nums[i] = off + i;
}
