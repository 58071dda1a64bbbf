// mem_real.c - memory placement on the real one-node machine: the system
// calls run (mbind for ilan_alloc_bloc, move_pages for migrate and the
// query) and every page is reported on node 0; bad input gives -1 and
// EINVAL, never a crash.
// ilan-test: threads=1,2
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "_mem.h"

#define MB (1u << 20)

int main(void)
{
    mem_api();
    CHECK(!mem_simulated(), "the real machine is simulated");
    size_t page = 4096, per[8];
    CHECK(num_domains() == 1 && domain_num() == 0, "%d domains, in %d", num_domains(), domain_num());

    /* Bloc over the one domain: node 0, touched or not, data intact. */
    char *a = alloc_bloc(4 * MB);
    CHECK(a && ((uintptr_t)a % page) == 0, "ilan_alloc_bloc: %p", (void *)a);
    CHECK(pages_on(a, 4 * MB, per) == 1, "one node reported");
    CHECK(per[0] == 1024, "%zu of 1024 pages on node 0 before the first touch", per[0]);
#pragma omp parallel for
    for (size_t i = 0; i < 4 * MB; i++)
        a[i] = (char)(i * 7);
    CHECK(pages_on(a, 4 * MB, per) == 1 && per[0] == 1024, "%zu pages on node 0", per[0]);
    for (size_t i = 0; i < 4 * MB; i++)
        CHECK(a[i] == (char)(i * 7), "byte %zu", i);

    /* Migrating malloc'd memory to node 0; unaligned ranges are rounded out. */
    size_t n = 3 * MB + 100;
    char *b = malloc(n);
    CHECK(b != NULL, "malloc");
    memset(b, 1, n);
    CHECK(mem_migrate(b + 10, n - 10, 0) == 0, "migrate: errno %d", errno);
    size_t expect = ((uintptr_t)b + n - 1) / page - ((uintptr_t)(b + 10)) / page + 1;
    CHECK(pages_on(b + 10, n - 10, per) == 1 && per[0] == expect, "%zu of %zu pages on node 0",
          per[0], expect);

    /* Attached to thread 0 of the team (the caller). */
    CHECK(mem_attach(b, n, 0) == 0, "attach: errno %d", errno);

    /* Bad input: -1 and EINVAL. */
#define BAD(call)                                                              \
    do {                                                                       \
        errno = 0;                                                             \
        CHECK((call) == -1 && errno == EINVAL, #call ": errno %d", errno);     \
    } while (0)
    BAD(mem_migrate(NULL, page, 0));
    BAD(mem_migrate(b, 0, 0));
    BAD(mem_migrate(b, page, 1));
    BAD(mem_migrate(b, page, -1));
    BAD(mem_attach(b, page, 5));
    BAD(mem_attach(NULL, page, 0));
    BAD(mem_next_touch(NULL, page));
    BAD(mem_next_touch(b, 0));
    BAD(mem_nodes(NULL, page, per, 8));
    BAD(mem_nodes(b, page, NULL, 8));
    BAD(mem_nodes(b, page, per, 0));
    errno = 0;
    CHECK(alloc_bloc(0) == NULL && errno == EINVAL, "alloc_bloc(0): errno %d", errno);
    errno = 0;
    CHECK(alloc_bloc_cyclic(page, 0) == NULL && errno == EINVAL, "bloc 0: errno %d", errno);
    errno = 0;
    mem_free(b, n); /* not from ilan_alloc_bloc*: refused, not freed */
    CHECK(errno == EINVAL, "ilan_mem_free of malloc'd memory: errno %d", errno);
    errno = 0;
    mem_free(a, 2 * MB); /* the wrong size */
    CHECK(errno == EINVAL, "ilan_mem_free with the wrong size: errno %d", errno);
    errno = 0;
    mem_free(a, 4 * MB);
    CHECK(errno == 0, "ilan_mem_free: errno %d", errno);
    free(b);

    /* Bloc-cyclic: blocks of 3 pages, node 0 here, every page placed. */
    char *c = alloc_bloc_cyclic(10 * page + 1, 3 * page);
    CHECK(c != NULL, "alloc_bloc_cyclic");
    CHECK(pages_on(c, 10 * page + 1, per) == 1 && per[0] == 11, "%zu of 11 pages", per[0]);
    mem_free(c, 10 * page + 1);
    return 0;
}
