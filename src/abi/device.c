/* device.c — target constructs and device memory routines on a host-only runtime. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi/export.h"
#include "base/omp_types.h"
#include "construct/target.h"

/*
 * ilan has no offload devices: omp_get_num_devices() is 0 and the host is
 * device number 0 == omp_get_initial_device(), as in libgomp 12 without
 * plugins. Target regions run on the encountering thread (the host
 * fallback), data mapping constructs have nothing to do (the data is
 * already in host memory), and the device memory routines act on host
 * memory for device 0 and fail for any other number.
 */

/* ---- target regions --------------------------------------------------- */

/* OpenMP 4.0 target (gcc 4.9 - 5 binaries). */
ILAN_EXPORT void GOMP_target(int device, void (*fn)(void *), const void *unused, size_t mapnum,
                             void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    (void)unused, (void)mapnum, (void)sizes, (void)kinds;
    target_check_device(device);
    target_run(fn, hostaddrs, NULL);
}

/* OpenMP 4.5+ target. `nowait` is honoured by running the region at once,
 * which a task may always do (an undeferred target task). */
ILAN_EXPORT void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                                 size_t *sizes, unsigned short *kinds, unsigned int flags,
                                 void **depend, void **args)
{
    (void)flags;
    target_check_device(device);
    target_run_ext(fn, mapnum, hostaddrs, sizes, kinds, depend, args);
}

/* ---- data mapping constructs: the data is already on the host ---------- */

ILAN_EXPORT void GOMP_target_data(int device, const void *unused, size_t mapnum, void **hostaddrs,
                                  size_t *sizes, unsigned char *kinds)
{
    (void)unused, (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
    target_check_device(device);
}

ILAN_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                      unsigned short *kinds)
{
    (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
    target_check_device(device);
}

ILAN_EXPORT void GOMP_target_end_data(void)
{
}

ILAN_EXPORT void GOMP_target_update(int device, const void *unused, size_t mapnum,
                                    void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    (void)unused, (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
    target_check_device(device);
}

ILAN_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                        unsigned short *kinds, unsigned int flags, void **depend)
{
    (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds, (void)flags;
    target_check_device(device);
    target_wait_depend(depend);
}

ILAN_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs,
                                             size_t *sizes, unsigned short *kinds,
                                             unsigned int flags, void **depend)
{
    (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds, (void)flags;
    target_check_device(device);
    target_wait_depend(depend);
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
