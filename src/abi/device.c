/* device.c — target constructs and device memory routines on a host-only runtime. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi/export.h"
#include "abi/omp_types.h"
#include "base/fatal.h"
#include "config/icv.h"
#include "core/task.h"
#include "core/team.h"
#include "core/thread.h"

/*
 * ilan has no offload devices: omp_get_num_devices() is 0 and the host is
 * device number 0 == omp_get_initial_device(), as in libgomp 12 without
 * plugins. Target regions run on the encountering thread (the host
 * fallback), data mapping constructs have nothing to do (the data is
 * already in host memory), and the device memory routines act on host
 * memory for device 0 and fail for any other number.
 */

/* The initial (host) device's number: omp_get_num_devices() in gcc 12. */
#define DEVICE_HOST 0

/* gcc's device argument encodings (gomp-constants.h). */
#define DEVICE_ICV (-1)           /* GOMP_DEVICE_ICV: use default-device-var */
#define DEVICE_HOST_FALLBACK (-2) /* GOMP_DEVICE_HOST_FALLBACK: if(false) */

/* GOMP_target_ext flags, map kinds and argument encoding (gomp-constants.h). */
#define TARGET_FLAG_NOWAIT (1u << 0)
#define MAP_KIND_MASK 0xffu
#define MAP_FIRSTPRIVATE 12u /* GOMP_MAP_FIRSTPRIVATE: copy the bytes in */
#define MAP_ATTACH 80u       /* GOMP_MAP_ATTACH: pointer to patch after a firstprivate */
#define TARGET_ARG_DEVICE_MASK ((1 << 7) - 1)
#define TARGET_ARG_DEVICE_ALL 0
#define TARGET_ARG_SUBSEQUENT_PARAM (1 << 7)
#define TARGET_ARG_ID_MASK (((1 << 8) - 1) << 8)
#define TARGET_ARG_THREAD_LIMIT (2 << 8)
#define TARGET_ARG_VALUE_SHIFT 16

/* Resolves a device argument of a GOMP_target* entry point, enforcing
 * OMP_TARGET_OFFLOAD=mandatory the way libgomp 12 does (the host fallback
 * and the initial device are always accepted). */
static void device_check_target(int device)
{
    if (device == DEVICE_ICV)
        device = thread_self()->icv.default_device;
    if (icv_global.target_offload == 2 && device != DEVICE_HOST_FALLBACK && device != DEVICE_HOST)
        ilan_fatal("OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found");
}

/* Waits for the dependences of a target construct: it runs undeferred on
 * the host, so once its predecessors are done it can run, and every task
 * created after it already comes after it. */
static void device_wait_depend(void **depend)
{
    if (depend != NULL)
        task_wait_depend(depend);
}

/* Calls a target region's outlined function with its host addresses. */
struct device_region {
    void (*fn)(void *); /* outlined target region */
    void **hostaddrs;   /* its argument */
};

static void device_call(void *arg)
{
    struct device_region *r = arg;
    r->fn(r->hostaddrs);
}

/* Runs a target region on the host, like libgomp's gomp_target_fallback:
 * the region is a new initial task, at level 0 and outside every team, with
 * the thread_limit the construct asked for. */
static void device_run_host(void (*fn)(void *), void **hostaddrs, void **args)
{
    unsigned thread_limit = 0;
    if (args) {
        while (*args) {
            intptr_t id = (intptr_t)*args++, val;
            if (id & TARGET_ARG_SUBSEQUENT_PARAM)
                val = (intptr_t)*args++;
            else
                val = id >> TARGET_ARG_VALUE_SHIFT;
            if ((id & TARGET_ARG_DEVICE_MASK) != TARGET_ARG_DEVICE_ALL)
                continue;
            if ((id & TARGET_ARG_ID_MASK) != TARGET_ARG_THREAD_LIMIT)
                continue;
            if (val > 0)
                thread_limit = val > INT_MAX ? INT_MAX : (unsigned)val;
            break;
        }
    }
    struct device_region region = {fn, hostaddrs};
    team_run_as_initial_task(device_call, &region, thread_limit);
}

/* ---- target regions --------------------------------------------------- */

/* OpenMP 4.0 target (gcc 4.9 - 5 binaries). */
ILAN_EXPORT void GOMP_target(int device, void (*fn)(void *), const void *unused, size_t mapnum,
                             void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    (void)unused, (void)mapnum, (void)sizes, (void)kinds;
    device_check_target(device);
    device_run_host(fn, hostaddrs, NULL);
}

/* OpenMP 4.5+ target. Firstprivate data is copied into a private block
 * first, as libgomp's fallback does, so that the region sees its own copy.
 * `nowait` is honoured by running the region at once, which a task may
 * always do (an undeferred target task). */
ILAN_EXPORT void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                                 size_t *sizes, unsigned short *kinds, unsigned int flags,
                                 void **depend, void **args)
{
    (void)flags;
    device_check_target(device);
    device_wait_depend(depend);

    size_t align = 1, total = 0;
    for (size_t i = 0; i < mapnum; i++)
        if ((kinds[i] & MAP_KIND_MASK) == MAP_FIRSTPRIVATE) {
            size_t a = (size_t)1 << (kinds[i] >> 8);
            if (align < a)
                align = a;
            total = ((total + a - 1) & ~(a - 1)) + sizes[i];
        }
    void *block = NULL;
    if (total) {
        block = malloc(total + align - 1);
        if (block == NULL)
            ilan_fatal("out of memory copying %zu bytes of firstprivate data", total);
        char *dst = (char *)(((uintptr_t)block + align - 1) & ~(uintptr_t)(align - 1));
        size_t off = 0;
        for (size_t i = 0; i < mapnum; i++)
            if ((kinds[i] & MAP_KIND_MASK) == MAP_FIRSTPRIVATE && hostaddrs[i] != NULL) {
                size_t a = (size_t)1 << (kinds[i] >> 8);
                off = (off + a - 1) & ~(a - 1);
                memcpy(dst + off, hostaddrs[i], sizes[i]);
                hostaddrs[i] = dst + off;
                off += sizes[i];
                /* An attach entry right after points at a pointer that must
                 * now refer to the copy (plus its bias in sizes[]). */
                if (i + 1 < mapnum && (kinds[i + 1] & MAP_KIND_MASK) == MAP_ATTACH) {
                    *(*(uintptr_t **)hostaddrs[i + 1] + sizes[i + 1]) = (uintptr_t)hostaddrs[i];
                    i++;
                }
            }
    }
    device_run_host(fn, hostaddrs, args);
    free(block);
}

/* ---- data mapping constructs: the data is already on the host ---------- */

ILAN_EXPORT void GOMP_target_data(int device, const void *unused, size_t mapnum, void **hostaddrs,
                                  size_t *sizes, unsigned char *kinds)
{
    (void)unused, (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
    device_check_target(device);
}

ILAN_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                      unsigned short *kinds)
{
    (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
    device_check_target(device);
}

ILAN_EXPORT void GOMP_target_end_data(void)
{
}

ILAN_EXPORT void GOMP_target_update(int device, const void *unused, size_t mapnum,
                                    void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    (void)unused, (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
    device_check_target(device);
}

ILAN_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                        unsigned short *kinds, unsigned int flags, void **depend)
{
    (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds, (void)flags;
    device_check_target(device);
    device_wait_depend(depend);
}

ILAN_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs,
                                             size_t *sizes, unsigned short *kinds,
                                             unsigned int flags, void **depend)
{
    (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds, (void)flags;
    device_check_target(device);
    device_wait_depend(depend);
}

/* ---- offload images: there is no device to load them on --------------- */

ILAN_EXPORT void GOMP_offload_register_ver(unsigned version, const void *host_table,
                                           int target_type, const void *target_data)
{
    (void)version, (void)host_table, (void)target_type, (void)target_data;
}

ILAN_EXPORT void GOMP_offload_register(const void *host_table, int target_type,
                                       const void *target_data)
{
    (void)host_table, (void)target_type, (void)target_data;
}

ILAN_EXPORT void GOMP_offload_unregister_ver(unsigned version, const void *host_table,
                                             int target_type, const void *target_data)
{
    (void)version, (void)host_table, (void)target_type, (void)target_data;
}

ILAN_EXPORT void GOMP_offload_unregister(const void *host_table, int target_type,
                                         const void *target_data)
{
    (void)host_table, (void)target_type, (void)target_data;
}

/* ---- device memory routines ------------------------------------------- */

ILAN_EXPORT void *omp_target_alloc(size_t size, int device_num)
{
    if (device_num != DEVICE_HOST)
        return NULL;
    return malloc(size);
}

ILAN_EXPORT void omp_target_free(void *device_ptr, int device_num)
{
    if (device_num == DEVICE_HOST)
        free(device_ptr);
}

ILAN_EXPORT int omp_target_is_present(const void *ptr, int device_num)
{
    (void)ptr;
    return device_num == DEVICE_HOST; /* host data is always present on the host */
}

ILAN_EXPORT int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                                  size_t src_offset, int dst_device_num, int src_device_num)
{
    if (dst_device_num != DEVICE_HOST || src_device_num != DEVICE_HOST)
        return EINVAL;
    if (length)
        memmove((char *)dst + dst_offset, (const char *)src + src_offset, length);
    return 0;
}

/* Copies a num_dims-dimensional sub-volume; dimension 0 is the outermost. */
static void device_copy_rect(char *dst, const char *src, size_t element_size, int num_dims,
                             const size_t *volume, const size_t *dst_offsets,
                             const size_t *src_offsets, const size_t *dst_dims,
                             const size_t *src_dims)
{
    if (num_dims == 1) {
        memmove(dst + dst_offsets[0] * element_size, src + src_offsets[0] * element_size,
                volume[0] * element_size);
        return;
    }
    /* Bytes in one slice of the outermost dimension, for each array. */
    size_t dst_slice = element_size, src_slice = element_size;
    for (int d = 1; d < num_dims; d++) {
        dst_slice *= dst_dims[d];
        src_slice *= src_dims[d];
    }
    for (size_t j = 0; j < volume[0]; j++)
        device_copy_rect(dst + (dst_offsets[0] + j) * dst_slice,
                         src + (src_offsets[0] + j) * src_slice, element_size, num_dims - 1,
                         volume + 1, dst_offsets + 1, src_offsets + 1, dst_dims + 1, src_dims + 1);
}

ILAN_EXPORT int omp_target_memcpy_rect(void *dst, const void *src, size_t element_size,
                                       int num_dims, const size_t *volume,
                                       const size_t *dst_offsets, const size_t *src_offsets,
                                       const size_t *dst_dimensions,
                                       const size_t *src_dimensions, int dst_device_num,
                                       int src_device_num)
{
    /* Both pointers NULL: the caller asks how many dimensions we support. */
    if (dst == NULL && src == NULL)
        return INT_MAX;
    if (dst_device_num != DEVICE_HOST || src_device_num != DEVICE_HOST)
        return EINVAL;
    if (dst == NULL || src == NULL || num_dims < 1 || element_size == 0)
        return EINVAL;
    for (int d = 0; d < num_dims; d++)
        if (volume[d] == 0)
            return 0;
    device_copy_rect(dst, src, element_size, num_dims, volume, dst_offsets, src_offsets,
                     dst_dimensions, src_dimensions);
    return 0;
}

/* Associating device storage with host storage needs a device; like
 * libgomp, both calls fail for the host (and for any other number). */
ILAN_EXPORT int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr,
                                         size_t size, size_t device_offset, int device_num)
{
    (void)host_ptr, (void)device_ptr, (void)size, (void)device_offset, (void)device_num;
    return EINVAL;
}

ILAN_EXPORT int omp_target_disassociate_ptr(const void *ptr, int device_num)
{
    (void)ptr, (void)device_num;
    return EINVAL;
}
