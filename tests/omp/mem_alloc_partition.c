// mem_alloc_partition.c - the OpenMP allocator partition trait on a
// what-if machine of 4 nodes x 2 cores (placements recorded): nearest puts
// a block on the allocating thread's node, blocked cuts it in one bloc per
// node, interleaved deals its pages to the nodes in turn, environment
// leaves it to first touch (ilan records nothing); omp_calloc, omp_realloc
// and omp_aligned_alloc go through the same path; a bad partition value
// gives omp_null_allocator as the spec says; the fallback trait applies
// when a placed block cannot be had; OMP_ALLOCATOR's
// memspace:partition=interleaved form is the default allocator.
// ilan-test: threads=8 env=HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;OMP_PROC_BIND=close;OMP_ALLOCATOR=omp_default_mem_space:partition=interleaved
#define _GNU_SOURCE 1
#include <errno.h>
#include "_mem.h"

#define PAGE 4096
#define SIZE (64 * PAGE)

static omp_allocator_handle_t with_partition(omp_uintptr_t v)
{
    omp_alloctrait_t t[1] = {{omp_atk_partition, v}};
    return omp_init_allocator(omp_default_mem_space, 1, t);
}

/* Pages of [p, p + size) per node, in per[0..3]. */
static void where(const void *p, size_t size, size_t per[8])
{
    CHECK(pages_on(p, size, per) == 4, "query: errno %d", errno);
}

int main(void)
{
    mem_api();
    size_t per[8];
    omp_allocator_handle_t nearest = with_partition(omp_atv_nearest);
    omp_allocator_handle_t blocked = with_partition(omp_atv_blocked);
    omp_allocator_handle_t inter = with_partition(omp_atv_interleaved);
    omp_allocator_handle_t env = with_partition(omp_atv_environment);
    CHECK(nearest && blocked && inter && env, "allocators");
    CHECK(with_partition(12345) == omp_null_allocator, "a bad partition value is accepted");
    CHECK(with_partition(omp_atv_default) != omp_null_allocator, "omp_atv_default refused");

    /* nearest: each thread's block on its own node. */
#pragma omp parallel
    {
        char *p = omp_alloc(SIZE, nearest);
        CHECK(p != NULL, "omp_alloc nearest");
        memset(p, omp_get_thread_num(), SIZE);
        size_t mine[8];
        where(p, SIZE, mine);
        int node = numa_node_num();
        CHECK(mine[node] >= SIZE / PAGE && mine[node] <= SIZE / PAGE + 1,
              "thread %d: %zu pages on its node %d", omp_get_thread_num(), mine[node], node);
        omp_free(p, nearest);
    }

    /* blocked: one bloc per domain of the team, in order. */
    char *p = NULL;
#pragma omp parallel
#pragma omp single
    p = omp_alloc(SIZE, blocked);
    CHECK(p != NULL, "omp_alloc blocked");
    where(p, SIZE, per);
    for (int k = 0; k < 4; k++)
        CHECK(per[k] >= SIZE / PAGE / 4 - 1 && per[k] <= SIZE / PAGE / 4 + 1, "blocked: node %d %zu",
              k, per[k]);
    size_t first[8], last[8];
    where(p, 1, first);
    where(p + SIZE - 1, 1, last);
    CHECK(first[0] == 1 && last[3] == 1, "blocked goes from node 0 to node 3");
    /* omp_realloc keeps the trait (the new block is placed as well). */
    p = omp_realloc(p, 2 * SIZE, blocked, blocked);
    CHECK(p != NULL, "omp_realloc");
    where(p, 2 * SIZE, per);
    for (int k = 0; k < 4; k++)
        CHECK(per[k] >= 2 * SIZE / PAGE / 4 - 1, "realloc'ed blocked: node %d %zu", k, per[k]);
    omp_free(p, blocked);

    /* interleaved: page i on node i % 4. */
    char *q = omp_aligned_alloc(PAGE, SIZE, inter);
    CHECK(q != NULL, "omp_aligned_alloc interleaved");
    where(q, SIZE, per);
    for (int k = 0; k < 4; k++)
        CHECK(per[k] >= SIZE / PAGE / 4 && per[k] <= SIZE / PAGE / 4 + 1, "interleaved: node %d %zu",
              k, per[k]);
    omp_free(q, inter);

    /* environment: first touch; ilan placed nothing, so nothing is recorded. */
    char *r = omp_calloc(SIZE / 8, 8, env);
    CHECK(r != NULL && r[100] == 0, "omp_calloc environment");
    where(r, SIZE, per);
    CHECK(per[0] + per[1] + per[2] + per[3] == 0, "environment: ilan placed pages");
    omp_free(r, env);

    /* OMP_ALLOCATOR=omp_default_mem_space:partition=interleaved: the default. */
    char *s = omp_alloc(SIZE, omp_null_allocator);
    CHECK(s != NULL, "omp_alloc with the default allocator");
    where(s, SIZE, per);
    for (int k = 0; k < 4; k++)
        CHECK(per[k] >= SIZE / PAGE / 4, "OMP_ALLOCATOR interleaved: node %d %zu", k, per[k]);
    omp_free(s, omp_null_allocator);

    /* calloc through a placed allocator: zeroed. */
    long *z = omp_calloc(SIZE / sizeof(long), sizeof(long), blocked);
    CHECK(z != NULL, "omp_calloc blocked");
    for (size_t i = 0; i < SIZE / sizeof(long); i++)
        CHECK(z[i] == 0, "omp_calloc: element %zu", i);
    omp_free(z, blocked);
    /* Fallbacks: a pool too small for the block. null_fb: NULL; the
     * default (default_mem_fb): omp_default_mem_alloc, whose block ilan
     * does not place. */
    omp_alloctrait_t nf[3] = {{omp_atk_partition, omp_atv_blocked}, {omp_atk_pool_size, PAGE},
                              {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t small_null = omp_init_allocator(omp_default_mem_space, 3, nf);
    nf[2].value = omp_atv_default_mem_fb;
    omp_allocator_handle_t small_dflt = omp_init_allocator(omp_default_mem_space, 3, nf);
    CHECK(small_null && small_dflt, "allocators with pools");
    CHECK(omp_alloc(SIZE, small_null) == NULL, "null_fb gave a block");
    char *fb = omp_alloc(SIZE, small_dflt);
    CHECK(fb != NULL, "default_mem_fb gave nothing");
    where(fb, SIZE, per);
    CHECK(per[0] + per[1] + per[2] + per[3] == 0, "the fallback block was placed");
    omp_free(fb, small_dflt);
    omp_destroy_allocator(small_null);
    omp_destroy_allocator(small_dflt);
    omp_destroy_allocator(nearest);
    omp_destroy_allocator(blocked);
    omp_destroy_allocator(inter);
    omp_destroy_allocator(env);
    return 0;
}
