/* target.h — target regions and data constructs on a host-only runtime (the host is device 0). */
#ifndef ILAN_CONSTRUCT_TARGET_H
#define ILAN_CONSTRUCT_TARGET_H

#include <stddef.h>

/* The initial (host) device's number: omp_get_num_devices() in gcc 12. */
#define DEVICE_HOST 0

/* Resolves a device argument of a GOMP_target* entry point (GOMP_DEVICE_ICV
 * means default-device-var), enforcing OMP_TARGET_OFFLOAD=mandatory the way
 * libgomp 12 does: the host fallback and the initial device are accepted,
 * anything else is a fatal error. */
void target_check_device(int device);

/* Waits for the dependences of a target construct (gcc's depend array; NULL
 * for none): it runs undeferred on the host. */
void target_wait_depend(void **depend);

/* Runs a target region on the host (OpenMP 4.0 form): a new initial task,
 * at level 0, outside every team, with the initial ICVs and a contention
 * group of its own; args (NULL: none) may hold its thread_limit. */
void target_run(void (*fn)(void *), void **hostaddrs, void **args);

/* The OpenMP 4.5+ form: waits for `depend`, copies the firstprivate
 * entries of hostaddrs[0..mapnum-1] into a private block (patching the
 * attach entries that follow them), then runs as target_run. */
void target_run_ext(void (*fn)(void *), size_t mapnum, void **hostaddrs, size_t *sizes,
                    unsigned short *kinds, void **depend, void **args);

#endif
