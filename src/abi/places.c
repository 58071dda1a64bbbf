/* places.c — the place-query routines while ilan builds no place list (OMP_PLACES is only validated so far). */
#include <stdint.h>
#include "abi/export.h"

/*
 * Until the topology code turns OMP_PLACES into places, the place list is
 * empty: these are exactly libgomp 12's answers without a place list (no
 * places, the current place -1, an empty partition, no processors in any
 * place). The topology issue replaces this file.
 */

ILAN_EXPORT int omp_get_num_places(void)
{
    return 0;
}

ILAN_EXPORT int omp_get_place_num_procs(int place_num)
{
    (void)place_num;
    return 0;
}

ILAN_EXPORT void omp_get_place_proc_ids(int place_num, int *ids)
{
    (void)place_num;
    (void)ids;
}

ILAN_EXPORT int omp_get_place_num(void)
{
    return -1;
}

ILAN_EXPORT int omp_get_partition_num_places(void)
{
    return 0;
}

ILAN_EXPORT void omp_get_partition_place_nums(int *place_nums)
{
    (void)place_nums;
}

/* Fortran bindings (arguments by reference; _8_: 8-byte integers). */
ILAN_EXPORT int32_t omp_get_num_places_(void) { return omp_get_num_places(); }
ILAN_EXPORT int32_t omp_get_place_num_(void) { return omp_get_place_num(); }
ILAN_EXPORT int32_t omp_get_partition_num_places_(void) { return omp_get_partition_num_places(); }
ILAN_EXPORT int32_t omp_get_place_num_procs_(const int32_t *p) { return omp_get_place_num_procs(*p); }
ILAN_EXPORT int32_t omp_get_place_num_procs_8_(const int64_t *p) { (void)p; return 0; }
ILAN_EXPORT void omp_get_place_proc_ids_(const int32_t *p, int32_t *ids) { (void)p; (void)ids; }
ILAN_EXPORT void omp_get_place_proc_ids_8_(const int64_t *p, int64_t *ids) { (void)p; (void)ids; }
ILAN_EXPORT void omp_get_partition_place_nums_(int32_t *nums) { (void)nums; }
ILAN_EXPORT void omp_get_partition_place_nums_8_(int64_t *nums) { (void)nums; }
