// alloc.c - OpenMP memory allocators: predefined allocators, alignment,
// calloc zeroing, realloc keeping contents, user allocators with traits
// (alignment, pool_size + null_fb / default_mem_fb), default allocator ICV,
// and the `allocate` clause (GOMP_alloc / GOMP_free).
#include "check.h"
#include <stdint.h>

static const omp_allocator_handle_t predefined[] = {
    omp_default_mem_alloc, omp_large_cap_mem_alloc, omp_const_mem_alloc,
    omp_high_bw_mem_alloc, omp_low_lat_mem_alloc,   omp_cgroup_mem_alloc,
    omp_pteam_mem_alloc,   omp_thread_mem_alloc,
};
#define NPRE (int)(sizeof predefined / sizeof predefined[0])

static void exercise(omp_allocator_handle_t a, const char *what)
{
    /* plain alloc: writable, distinct */
    char *p = omp_alloc(1000, a);
    CHECK(p != NULL, "%s: omp_alloc(1000) NULL", what);
    memset(p, 0xab, 1000);
    char *q = omp_alloc(1000, a);
    CHECK(q != NULL && q != p, "%s: second alloc", what);
    memset(q, 0xcd, 1000);
    for (int i = 0; i < 1000; i++) CHECK((unsigned char)p[i] == 0xab, "%s: blocks overlap", what);
    omp_free(q, a);
    /* realloc keeps the contents */
    p = omp_realloc(p, 50000, a, a);
    CHECK(p != NULL, "%s: realloc grow NULL", what);
    for (int i = 0; i < 1000; i++) CHECK((unsigned char)p[i] == 0xab, "%s: realloc lost byte %d", what, i);
    memset(p + 1000, 1, 49000);
    p = omp_realloc(p, 10, a, a);
    CHECK(p != NULL, "%s: realloc shrink NULL", what);
    for (int i = 0; i < 10; i++) CHECK((unsigned char)p[i] == 0xab, "%s: shrink lost byte %d", what, i);
    omp_free(p, a);
    /* aligned alloc */
    for (size_t al = 1; al <= 4096; al *= 2) {
        void *x = omp_aligned_alloc(al, 333, a);
        CHECK(x != NULL, "%s: aligned_alloc(%zu) NULL", what, al);
        CHECK(((uintptr_t)x & (al - 1)) == 0, "%s: %p not aligned to %zu", what, x, al);
        memset(x, 7, 333);
        omp_free(x, a);
    }
    /* calloc zeroes, also after the memory was dirtied and freed */
    for (int r = 0; r < 3; r++) {
        long *z = omp_calloc(777, sizeof(long), a);
        CHECK(z != NULL, "%s: calloc NULL", what);
        for (int i = 0; i < 777; i++) CHECK(z[i] == 0, "%s: calloc not zero at %d", what, i);
        memset(z, 0xff, 777 * sizeof(long));
        omp_free(z, a);
    }
    long *za = omp_aligned_calloc(256, 100, sizeof(long), a);
    CHECK(za != NULL && ((uintptr_t)za & 255) == 0, "%s: aligned_calloc", what);
    for (int i = 0; i < 100; i++) CHECK(za[i] == 0, "%s: aligned_calloc not zero", what);
    omp_free(za, a);
    /* size 0 returns NULL (spec) and omp_free(NULL) is a no-op */
    CHECK(omp_alloc(0, a) == NULL, "%s: omp_alloc(0) not NULL", what);
    omp_free(NULL, a);
    /* realloc(NULL) behaves like alloc, realloc(p, 0) frees */
    void *r = omp_realloc(NULL, 64, a, a);
    CHECK(r != NULL, "%s: realloc(NULL, 64)", what);
    CHECK(omp_realloc(r, 0, a, a) == NULL, "%s: realloc(p, 0) not NULL", what);
}

int main(void)
{
    for (int i = 0; i < NPRE; i++) {
        char name[32];
        snprintf(name, sizeof name, "predefined #%d", i);
        exercise(predefined[i], name);
    }

    /* allocation from many threads at once */
    {
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        {
            int me = omp_get_thread_num();
            for (int r = 0; r < 50; r++) {
                omp_allocator_handle_t a = predefined[(me + r) % NPRE];
                int *v = omp_alloc(100 * sizeof(int), a);
                if (!v) {
                    bad++;
                    continue;
                }
                for (int i = 0; i < 100; i++) v[i] = me * 1000 + i;
                for (int i = 0; i < 100; i++) bad += v[i] != me * 1000 + i;
                omp_free(v, a);
            }
        }
        CHECK(bad == 0, "threaded allocation errors %d", bad);
    }

    /* user allocator with alignment trait */
    {
        omp_alloctrait_t tr[] = {{omp_atk_alignment, 512}};
        omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, tr);
        CHECK(a != omp_null_allocator, "init_allocator(alignment) failed");
        for (int i = 0; i < 20; i++) {
            void *p = omp_alloc(1 + i * 37, a);
            CHECK(p && ((uintptr_t)p & 511) == 0, "alignment trait not honoured: %p", p);
            omp_free(p, a);
        }
        /* a larger explicit alignment wins */
        void *p = omp_aligned_alloc(2048, 10, a);
        CHECK(p && ((uintptr_t)p & 2047) == 0, "aligned_alloc on aligned allocator");
        omp_free(p, a);
        exercise(a, "alignment allocator");
        omp_destroy_allocator(a);
    }

    /* pool_size with null_fb: allocations fail (NULL) once the pool is exhausted */
    {
        omp_alloctrait_t tr[] = {{omp_atk_pool_size, 65536}, {omp_atk_fallback, omp_atv_null_fb}};
        omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, tr);
        CHECK(a != omp_null_allocator, "init_allocator(pool_size) failed");
        CHECK(omp_alloc(100000, a) == NULL, "allocation larger than the pool succeeded");
        void *blocks[64];
        int nb = 0;
        for (; nb < 64; nb++) {
            blocks[nb] = omp_alloc(8192, a);
            if (!blocks[nb]) break;
            memset(blocks[nb], nb, 8192);
        }
        CHECK(nb >= 1 && nb <= 8, "pool of 64 KiB gave %d blocks of 8 KiB", nb);
        CHECK(omp_alloc(8192, a) == NULL, "exhausted pool still allocates");
        /* freeing returns space to the pool */
        omp_free(blocks[0], a);
        blocks[0] = omp_alloc(8192, a);
        CHECK(blocks[0] != NULL, "freed pool space not reusable");
        for (int i = 0; i < nb; i++) omp_free(blocks[i], a);
        /* everything freed: the pool is usable again */
        void *big = omp_alloc(32768, a);
        CHECK(big != NULL, "pool not reusable after freeing everything");
        /* realloc in the same pool reuses the old block's space: 48 KiB grows
         * to 64 KiB, but a second block cannot grow past what is left */
        big = omp_realloc(big, 49152, a, a);
        CHECK(big != NULL, "realloc within the pool failed");
        big = omp_realloc(big, 65536, omp_null_allocator, omp_null_allocator);
        CHECK(big != NULL, "realloc to the whole pool failed");
        CHECK(omp_alloc(1, a) == NULL, "a full pool still allocates");
        big = omp_realloc(big, 1024, a, a);
        CHECK(big != NULL, "realloc shrinking in the pool failed");
        void *small = omp_alloc(16, a);
        CHECK(small != NULL, "space a shrunk block gave back is not reusable");
        CHECK(omp_realloc(small, 65536, a, a) == NULL, "realloc past the pool succeeded");
        omp_free(small, a);
        omp_free(big, a);
        omp_destroy_allocator(a);
    }

    /* pool_size with default_mem_fb: falls back to the default allocator */
    {
        omp_alloctrait_t tr[] = {{omp_atk_pool_size, 4096},
                                 {omp_atk_fallback, omp_atv_default_mem_fb}};
        omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, tr);
        CHECK(a != omp_null_allocator, "init_allocator(default_mem_fb) failed");
        void *p = omp_alloc(100000, a);
        CHECK(p != NULL, "default_mem_fb did not fall back");
        memset(p, 1, 100000);
        omp_free(p, a);
        void *ps[10];
        for (int i = 0; i < 10; i++) {
            ps[i] = omp_alloc(2048, a);
            CHECK(ps[i] != NULL, "default_mem_fb alloc %d", i);
        }
        for (int i = 0; i < 10; i++) omp_free(ps[i], a);
        omp_destroy_allocator(a);
    }

    /* default allocator ICV */
    {
        CHECK(omp_get_default_allocator() == omp_default_mem_alloc, "default allocator %ld",
              (long)omp_get_default_allocator());
        omp_set_default_allocator(omp_large_cap_mem_alloc);
        CHECK(omp_get_default_allocator() == omp_large_cap_mem_alloc, "set_default_allocator");
        /* omp_null_allocator as argument means the default allocator */
        void *p = omp_alloc(128, omp_null_allocator);
        CHECK(p != NULL, "alloc with null allocator");
        omp_free(p, omp_null_allocator);
        /* the ICV is per task: inherited by implicit tasks */
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        bad += omp_get_default_allocator() != omp_large_cap_mem_alloc;
        CHECK(bad == 0, "default allocator not inherited");
        omp_set_default_allocator(omp_default_mem_alloc);
    }

    /* allocate clause on private variables (gcc lowers to GOMP_alloc/GOMP_free) */
    {
        int bad = 0;
        int x = 5;
        long arr[32];
        for (int i = 0; i < 32; i++) arr[i] = i;
#pragma omp parallel firstprivate(x, arr) allocate(omp_large_cap_mem_alloc : x) \
    allocate(align(128), allocator(omp_default_mem_alloc) : arr) reduction(+ : bad)
        {
            bad += x != 5;
            x = omp_get_thread_num();
            for (int i = 0; i < 32; i++) bad += arr[i] != i;
            bad += ((uintptr_t)arr & 127) != 0;
            for (int i = 0; i < 32; i++) arr[i] = -x;
#pragma omp barrier
            bad += x != omp_get_thread_num();
            for (int i = 0; i < 32; i++) bad += arr[i] != -x;
        }
        CHECK(bad == 0, "allocate clause errors %d", bad);
        CHECK(x == 5, "allocate firstprivate leaked");
    }
    return 0;
}
