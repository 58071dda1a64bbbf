// unsupported_task.c - until the tasking engine exists, a task construct
// stops the program with a message naming the construct (never silently).
// ilan-test: threads=1,2
// ilan-test: expect-fail: ^ilan: the task construct \(GOMP_task\) is not supported
#include "check.h"

int main(void)
{
    int x = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(x)
        x = 1;
    }
    printf("the task construct returned (x = %d)\n", x);
    return 0;
}
