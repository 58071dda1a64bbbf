/* _mem.h — ilan's memory-placement API looked up at run time (the tests link against the system libgomp, which lacks it). */
#ifndef ILAN_TEST_MEM_H
#define ILAN_TEST_MEM_H

#include <stddef.h>
#include "check.h"

static int (*num_domains)(void);
static int (*domain_num)(void);
static void *(*alloc_bloc)(size_t);
static void *(*alloc_bloc_cyclic)(size_t, size_t);
static void (*mem_free)(void *, size_t);
static int (*mem_attach)(void *, size_t, int);
static int (*mem_migrate)(void *, size_t, int);
static int (*mem_next_touch)(void *, size_t);
static int (*mem_nodes)(const void *, size_t, size_t *, int);
static int (*mem_simulated)(void);
static long long (*mem_count)(const char *);
static int (*numa_node_num)(void);
static int (*num_numa_nodes)(void);

/* Looks every function up; fails the test when one is missing. */
static void mem_api(void)
{
#define MEM_LOOKUP(var, name)                                                  \
    do {                                                                       \
        *(void **)&var = dlsym(RTLD_DEFAULT, name);                            \
        CHECK(var != NULL, "%s is missing", name);                             \
    } while (0)
    MEM_LOOKUP(num_domains, "ilan_get_num_locality_domains");
    MEM_LOOKUP(domain_num, "ilan_get_locality_domain_num");
    MEM_LOOKUP(alloc_bloc, "ilan_alloc_bloc");
    MEM_LOOKUP(alloc_bloc_cyclic, "ilan_alloc_bloc_cyclic");
    MEM_LOOKUP(mem_free, "ilan_mem_free");
    MEM_LOOKUP(mem_attach, "ilan_mem_attach");
    MEM_LOOKUP(mem_migrate, "ilan_mem_migrate");
    MEM_LOOKUP(mem_next_touch, "ilan_mem_migrate_on_next_touch");
    MEM_LOOKUP(mem_nodes, "ilan_mem_nodes");
    MEM_LOOKUP(mem_simulated, "ilan_mem_simulated");
    MEM_LOOKUP(mem_count, "ilan_mem_count");
    MEM_LOOKUP(numa_node_num, "ilan_get_numa_node_num");
    MEM_LOOKUP(num_numa_nodes, "ilan_get_num_numa_nodes");
#undef MEM_LOOKUP
}

/* The pages of [p, p + size) per node (up to 8 nodes); returns what ilan_mem_nodes returned. */
static int pages_on(const void *p, size_t size, size_t per[8])
{
    return mem_nodes(p, size, per, 8);
}

#endif
