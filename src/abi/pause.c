/* pause.c — omp_pause_resource and omp_pause_resource_all (C and Fortran). */
#include <stdint.h>

#include "abi/export.h"
#include "base/omp_types.h"
#include "core/team.h"
#include "instr/trace.h"

/* The host is the only device, number 0 (omp_get_initial_device() in gcc 12). */
#define PAUSE_HOST_DEVICE 0

/* Pausing the host: allowed only outside every parallel region (libgomp
 * likewise refuses inside one). Soft and hard pauses both end the idle pool
 * threads, as libgomp does: no OpenMP state lives in them between regions,
 * and the next region starts new ones. */
static int pause_host(omp_pause_resource_t kind)
{
    if (kind != omp_pause_soft && kind != omp_pause_hard)
        return -1;
    if (thread_self()->team != NULL)
        return -1;
    team_pause();
    trace_write_now();
    return 0;
}

ILAN_EXPORT int omp_pause_resource(omp_pause_resource_t kind, int device_num)
{
    if (device_num != PAUSE_HOST_DEVICE)
        return -1; /* no such device */
    return pause_host(kind);
}

ILAN_EXPORT int omp_pause_resource_all(omp_pause_resource_t kind)
{
    return pause_host(kind);
}

ILAN_EXPORT int32_t omp_pause_resource_(const int32_t *kind, const int32_t *device_num)
{
    return omp_pause_resource((omp_pause_resource_t)*kind, *device_num);
}

ILAN_EXPORT int32_t omp_pause_resource_all_(const int32_t *kind)
{
    return omp_pause_resource_all((omp_pause_resource_t)*kind);
}
