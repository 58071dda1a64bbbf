// mem_next_touch.c - migrate on next touch on the real machine: a range
// faults once per page on its first touch (counted by ilan), its data is
// intact, a second touch does not fault; a SIGSEGV handler the program
// installed before still gets its own faults; all the team's threads
// first-touching the same protected page at once lose no write.
// ilan-test: threads=1,2,8 tsan
#define _GNU_SOURCE 1
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>
#include "_mem.h"

#define PAGES 64

static char *own_page;           /* the program's own protected page */
static volatile sig_atomic_t own_faults;

/* The program's handler: its own page becomes writable. */
static void own_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    if ((char *)si->si_addr >= own_page && (char *)si->si_addr < own_page + 4096) {
        own_faults++;
        mprotect(own_page, 4096, PROT_READ | PROT_WRITE);
        return;
    }
    _exit(3); /* a fault nobody expected */
}

int main(void)
{
    mem_api();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);

    /* The program's handler comes first; ilan's arrives with its first range. */
    own_page = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(own_page != MAP_FAILED, "mmap");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = own_handler;
    sa.sa_flags = SA_SIGINFO;
    CHECK(sigaction(SIGSEGV, &sa, NULL) == 0, "sigaction");

    /* One range of PAGES pages, filled, armed, read by the team. */
    char *a = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(a != MAP_FAILED, "mmap");
    for (size_t i = 0; i < PAGES * page; i++)
        a[i] = (char)(i % 251);
    long long f0 = mem_count("next_touch_faults");
    CHECK(mem_next_touch(a, PAGES * page) == 0, "arm: errno %d", errno);
    errno = 0;
    CHECK(mem_next_touch(a + page, page) == -1 && errno == EBUSY, "re-arming an armed range: %d",
          errno);
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (size_t i = 0; i < PAGES * page; i++)
        sum += a[i];
    long expect = 0;
    for (size_t i = 0; i < PAGES * page; i++)
        expect += (char)(i % 251);
    CHECK(sum == expect, "data changed: %ld, expected %ld", sum, expect);
    CHECK(mem_count("next_touch_faults") - f0 == PAGES, "%lld faults for %d pages",
          mem_count("next_touch_faults") - f0, PAGES);
    size_t per[8];
    CHECK(pages_on(a, PAGES * page, per) == 1 && per[0] == PAGES, "%zu pages on node 0", per[0]);
    /* A second touch: no fault. */
    for (size_t i = 0; i < PAGES * page; i += 100)
        a[i]++;
    CHECK(mem_count("next_touch_faults") - f0 == PAGES, "faults on the second touch");

    /* The program's own fault goes to its handler. */
    long long foreign0 = mem_count("foreign_faults");
    own_page[5] = 1;
    CHECK(own_faults == 1 && own_page[5] == 1, "the program's handler ran %d times",
          (int)own_faults);
    CHECK(mem_count("foreign_faults") - foreign0 == 1, "foreign faults %lld",
          mem_count("foreign_faults") - foreign0);

    /* Every thread first-touches the same page at once, many times over. */
    for (int round = 0; round < 20; round++) {
        long long before = mem_count("next_touch_faults");
        int *shared = (int *)(a + (round % PAGES) * page);
        memset(shared, 0, page);
        CHECK(mem_next_touch(shared, page) == 0, "arm round %d: errno %d", round, errno);
#pragma omp parallel
        {
#pragma omp barrier
            int me = omp_get_thread_num();
            shared[me] += me + 1;             /* a plain write each: none may be lost */
            __atomic_add_fetch(&shared[100], 1, __ATOMIC_RELAXED);
        }
        int n = omp_get_max_threads();
        for (int t = 0; t < n; t++)
            CHECK(shared[t] == t + 1, "round %d: thread %d wrote %d", round, t, shared[t]);
        CHECK(shared[100] == n, "round %d: %d of %d increments", round, shared[100], n);
        CHECK(mem_count("next_touch_faults") - before == 1, "round %d: %lld faults for one page",
              round, mem_count("next_touch_faults") - before);
    }
    return 0;
}
