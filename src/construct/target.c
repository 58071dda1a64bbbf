/* target.c — target regions on a host-only runtime: the host fallback, a new initial task with its own data environment, firstprivate data copied first. */
#include "construct/target.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/icv.h"
#include "core/task.h"
#include "core/team.h"
#include "core/thread.h"


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
void target_check_device(int device)
{
    if (device == DEVICE_ICV)
        device = thread_self()->icv.default_device;
    if (icv_global.target_offload == 2 && device != DEVICE_HOST_FALLBACK && device != DEVICE_HOST)
        ilan_fatal("OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found");
}

/* Waits for the dependences of a target construct: it runs undeferred on
 * the host, so once its predecessors are done it can run, and every task
 * created after it already comes after it. */
void target_wait_depend(void **depend)
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

void target_run(void (*fn)(void *), void **hostaddrs, void **args)
{
    device_run_host(fn, hostaddrs, args);
}

void target_run_ext(void (*fn)(void *), size_t mapnum, void **hostaddrs, size_t *sizes,
                    unsigned short *kinds, void **depend, void **args)
{
    target_wait_depend(depend);

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

