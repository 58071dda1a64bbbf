/* pause_memory.c — teams freed by omp_pause_resource_all give back everything they held, work-share loop buffers included: 10,000 regions of changing sizes (ordered and doacross loops, nested teams), with a pause every 40, leave the resident set where it was after the first 25 pauses. */
// ilan-test: threads=3
#include "check.h"
#include <stdio.h>

#define ITERS 4096 /* a guided doacross loop keeps a record per iteration: 256 KiB */

/* Resident pages of the process, from /proc/self/statm. */
static long resident_pages(void)
{
    long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    CHECK(f && fscanf(f, "%ld %ld", &size, &resident) == 2, "cannot read /proc/self/statm");
    fclose(f);
    return resident;
}

/* One region of n threads; returns what its loops counted. */
static long region(int n, int k)
{
    long sum = 0;
    #pragma omp parallel num_threads(n) reduction(+ : sum)
    {
        #pragma omp for ordered schedule(dynamic, 3)
        for (int i = 0; i < 64 + k % 7; i++) {
            #pragma omp ordered
            sum += i;
        }
        /* The nested teams are the ones a pause frees (the hot team is
         * kept): their loop buffers are what must not leak. */
        #pragma omp parallel num_threads(2) reduction(+ : sum)
        {
            #pragma omp for ordered(1) schedule(guided)
            for (int i = 0; i < ITERS; i++) {
                #pragma omp ordered depend(sink : i - 1)
                sum += 1;
                #pragma omp ordered depend(source)
            }
        }
    }
    return sum;
}

int main(void)
{
    omp_set_max_active_levels(2);
    long before = 0;
    for (int k = 0; k < 10000; k++) {
        int n = 1 + k % 4, len = 64 + k % 7;
        long sum = region(n, k);
        CHECK(sum == (long)len * (len - 1) / 2 + (long)ITERS * n, "region %d: sum %ld", k, sum);
        if (k % 40 == 39)
            omp_pause_resource_all(omp_pause_soft);
        if (k == 999)
            before = resident_pages();
    }
    long after = resident_pages();
    /* 225 leaked teams' loop buffers would be 14 MiB and more; allow 1 MiB
     * of allocator noise. */
    CHECK(after - before < 256, "resident set grew from %ld to %ld pages over 225 pauses", before,
          after);
    return 0;
}
