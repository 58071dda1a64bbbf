// unsupported_taskloop.c - until the tasking engine exists, taskloop stops
// the program with a message naming the construct (never silently).
// ilan-test: threads=2
// ilan-test: expect-fail: ^ilan: the taskloop construct \(GOMP_taskloop\) is not supported
#include "check.h"

int main(void)
{
    long sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+ : sum)
    for (int i = 0; i < 100; i++)
        sum += i;
    printf("the taskloop construct returned (sum = %ld)\n", sum);
    return 0;
}
