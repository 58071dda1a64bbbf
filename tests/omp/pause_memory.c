/* pause_memory.c — teams freed by omp_pause_resource_all give back everything they held, work-share loop buffers included: 10,000 cycles of regions of changing sizes (ordered and doacross loops, nested teams), each ended by a pause, leave the resident set where it was after the first 200. */
// ilan-test: threads=3
#include "check.h"
#include <stdio.h>

/* Resident pages of the process, from /proc/self/statm. */
static long resident_pages(void)
{
    long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    CHECK(f && fscanf(f, "%ld %ld", &size, &resident) == 2, "cannot read /proc/self/statm");
    fclose(f);
    return resident;
}

static long cycle(int k)
{
    long sum = 0;
    int n = 1 + k % 4;
    #pragma omp parallel num_threads(n) reduction(+ : sum)
    {
        #pragma omp for ordered schedule(dynamic, 3)
        for (int i = 0; i < 64 + k % 7; i++) {
            #pragma omp ordered
            sum += i;
        }
        #pragma omp for ordered(1) schedule(static, 2)
        for (int i = 0; i < 32; i++) {
            #pragma omp ordered depend(sink : i - 1)
            sum += 1;
            #pragma omp ordered depend(source)
        }
        #pragma omp parallel num_threads(2) reduction(+ : sum)
        {
            #pragma omp for schedule(guided)
            for (int i = 0; i < 100; i++)
                sum += 1;
        }
    }
    omp_pause_resource_all(omp_pause_soft);
    return sum;
}

int main(void)
{
    omp_set_max_active_levels(2);
    long before = 0;
    for (int k = 0; k < 10000; k++) {
        long sum = cycle(k);
        int n = 1 + k % 4, len = 64 + k % 7;
        CHECK(sum == (long)len * (len - 1) / 2 + 32 + 100L * n,
              "cycle %d: sum %ld", k, sum);
        if (k == 199)
            before = resident_pages();
    }
    long after = resident_pages();
    /* 10,000 leaked buffers of a cache line or more would be 600 KiB and up;
     * allow 64 pages (256 KiB) of allocator noise. */
    CHECK(after - before < 64, "resident set grew from %ld to %ld pages over 9,800 cycles",
          before, after);
    return 0;
}
