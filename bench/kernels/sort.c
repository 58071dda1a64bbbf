/* sort.c - a task-parallel merge sort in the style of BOTS sort (cilksort): four quarters sorted by tasks, merged by tasks that split the larger run at its middle. */
#include "kernel.h"
#include <stdint.h>

/*
 * sort(a, tmp, n) sorts a[0..n) using tmp[0..n) as scratch: below
 * SORT_CUTOFF elements a serial quicksort (insertion sort below
 * INSERTION_CUTOFF); above it, four tasks sort the quarters, two tasks
 * merge them pairwise into tmp, and one merge brings both halves back into
 * a.  merge(...) is itself parallel: above MERGE_CUTOFF elements it splits
 * the longer input at its middle, finds the split point in the shorter
 * one by binary search, and merges the two pairs in two tasks.  The
 * cut-offs are BOTS's defaults (2048 elements); the tasks are hundreds of
 * microseconds to milliseconds long, coarser than fib's or the tree's.
 */
#define SORT_CUTOFF 2048
#define MERGE_CUTOFF 2048
#define INSERTION_CUTOFF 20

typedef uint32_t elem;

static elem *data, *scratch, *input; /* the array sorted, its scratch, the unsorted input */
static double checksum;              /* of the last repetition's result */

static void insertion_sort(elem *a, long n)
{
    for (long i = 1; i < n; i++) {
        elem x = a[i];
        long j = i;
        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* The median of a's first, middle and last elements. */
static elem median_of_three(const elem *a, long n)
{
    elem x = a[0], y = a[n / 2], z = a[n - 1];
    if (x > y) {
        elem t = x;
        x = y;
        y = t;
    }
    if (y > z)
        y = z;
    return x > y ? x : y;
}

/* Serial quicksort (Hoare partition), the smaller side recursed into. */
static void quick_sort(elem *a, long n)
{
    while (n > INSERTION_CUTOFF) {
        elem pivot = median_of_three(a, n);
        long i = -1, j = n;
        for (;;) {
            do
                i++;
            while (a[i] < pivot);
            do
                j--;
            while (a[j] > pivot);
            if (i >= j)
                break;
            elem t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        long left = j + 1;
        if (left < n - left) {
            quick_sort(a, left);
            a += left;
            n -= left;
        } else {
            quick_sort(a + left, n - left);
            n = left;
        }
    }
    insertion_sort(a, n);
}

/* Merges the sorted runs a[0..na) and b[0..nb) into out. */
static void merge_serial(const elem *a, long na, const elem *b, long nb, elem *out)
{
    long i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = b[j] < a[i] ? b[j++] : a[i++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

/* The number of elements of the sorted run b[0..nb) below x. */
static long count_below(const elem *b, long nb, elem x)
{
    long lo = 0, hi = nb;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (b[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void merge(const elem *a, long na, const elem *b, long nb, elem *out)
{
    if (na < nb) { /* split the longer run */
        const elem *t = a;
        a = b;
        b = t;
        long tn = na;
        na = nb;
        nb = tn;
    }
    if (na + nb <= MERGE_CUTOFF || nb == 0) {
        merge_serial(a, na, b, nb, out);
        return;
    }
    long ha = na / 2;
    long hb = count_below(b, nb, a[ha]);
#pragma omp task
    merge(a, ha, b, hb, out);
#pragma omp task
    merge(a + ha, na - ha, b + hb, nb - hb, out + ha + hb);
#pragma omp taskwait
}

static void sort(elem *a, elem *tmp, long n)
{
    if (n <= SORT_CUTOFF) {
        quick_sort(a, n);
        return;
    }
    long q = n / 4;
    long len[4] = {q, q, q, n - 3 * q};
    elem *part[4] = {a, a + q, a + 2 * q, a + 3 * q};
    elem *ptmp[4] = {tmp, tmp + q, tmp + 2 * q, tmp + 3 * q};
    for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i)
        sort(part[i], ptmp[i], len[i]);
    }
#pragma omp taskwait
#pragma omp task
    merge(part[0], len[0], part[1], len[1], ptmp[0]);
#pragma omp task
    merge(part[2], len[2], part[3], len[3], ptmp[2]);
#pragma omp taskwait
    merge(ptmp[0], len[0] + len[1], ptmp[2], len[2] + len[3], a);
}

/* Position-weighted sum of a sorted array: equal only for the same order. */
static double weighted_sum(const elem *a, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += (double)a[i] * (double)(i % 1024 + 1);
    return s;
}

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++) {
        memcpy(data, input, (size_t)kopt.n * sizeof *data);
        sort(data, scratch, kopt.n);
    }
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "sort", "task", 1 << 22, 1);
    long n = kopt.n;
    input = malloc((size_t)n * sizeof *input);
    data = malloc((size_t)n * sizeof *data);
    scratch = malloc((size_t)n * sizeof *scratch);
    if (!input || !data || !scratch) {
        fprintf(stderr, "sort: out of memory for %ld elements\n", n);
        return 2;
    }
    uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
    for (long i = 0; i < n; i++) { /* xorshift64: a fixed input per n */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        input[i] = (elem)(x >> 32);
    }
    double t = kernel_time(body);
    for (long i = 1; i < n; i++)
        if (data[i - 1] > data[i]) {
            fprintf(stderr, "sort: not sorted at %ld\n", i);
            return 1;
        }
    checksum = weighted_sum(data, n);
    /* The reference: the serial sort of the same input. */
    memcpy(data, input, (size_t)n * sizeof *data);
    quick_sort(data, n);
    return kernel_result(t, checksum, weighted_sum(data, n), 0.0);
}
