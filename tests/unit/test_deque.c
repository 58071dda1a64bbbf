/* test_deque.c — the Chase-Lev deque: single-threaded semantics and an owner/thieves stress (plain pthreads). */
// ilan-test: tsan
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/deque.h"

#define ITEM(i) ((void *)(uintptr_t)((i) + 1))
#define INDEX(p) ((long)(uintptr_t)(p)-1)

static void test_single(void)
{
    struct deque d;
    deque_init(&d, 2); /* 4 slots: pushing 100 grows it several times */
    assert(deque_pop(&d) == NULL && deque_steal(&d) == NULL && deque_size(&d) == 0);
    for (long i = 0; i < 100; i++)
        deque_push(&d, ITEM(i));
    assert(deque_size(&d) == 100);
    /* Owner LIFO at the bottom, thief FIFO at the top. */
    assert(INDEX(deque_pop(&d)) == 99);
    assert(INDEX(deque_steal(&d)) == 0);
    assert(INDEX(deque_steal(&d)) == 1);
    assert(INDEX(deque_pop(&d)) == 98);
    /* Indices: bottom counts pushes minus pops. */
    assert(deque_bottom(&d) == 98);
    assert(INDEX(deque_pop(&d)) == 97);
    assert(INDEX(deque_pop(&d)) == 96);
    assert(deque_bottom(&d) == 96);
    assert(INDEX(deque_steal(&d)) == 2);
    assert(INDEX(deque_steal(&d)) == 3);
    long n = 0, last = 1000;
    void *x;
    while ((x = deque_pop(&d)) != NULL) {
        assert(INDEX(x) < last);
        last = INDEX(x);
        n++;
    }
    assert(n == 92 && last == 4); /* 4..95 */
    assert(deque_pop(&d) == NULL && deque_steal(&d) == NULL);
    /* Reuse after emptying, interleaved. */
    for (long round = 0; round < 1000; round++) {
        deque_push(&d, ITEM(round));
        assert(INDEX(round % 2 ? deque_pop(&d) : deque_steal(&d)) == round);
    }
    deque_destroy(&d);
}

/* A zeroed deque is an empty one without a buffer (how a team's task
 * slots start): it reads as empty, and its first push allocates the
 * buffer, which grows from there. */
static void test_zeroed(void)
{
    static struct deque d; /* zeroed */
    assert(deque_pop(&d) == NULL && deque_steal(&d) == NULL && deque_size(&d) == 0);
    bool refused = true;
    assert(deque_steal_if(&d, NULL, NULL, &refused) == NULL && !refused);
    long many = 3L << ILAN_TASK_DEQUE_LOG2; /* past the first buffer */
    for (long i = 0; i < many; i++)
        deque_push(&d, ITEM(i));
    assert(deque_size(&d) == many);
    assert(INDEX(deque_steal(&d)) == 0);
    for (long i = many - 1; i >= 1; i--)
        assert(INDEX(deque_pop(&d)) == i);
    assert(deque_pop(&d) == NULL && deque_steal(&d) == NULL);
    deque_destroy(&d);
    /* Destroying one that never had a buffer frees nothing. */
    static struct deque never;
    deque_destroy(&never);
}

/* ---- stress: one owner pushing and popping, several thieves ---- */

#define STRESS_ITEMS 400000L
#define THIEVES 3

static struct deque sd;
static _Atomic unsigned char *taken;
static _Atomic long total_taken;
static _Atomic int owner_done;

static void take(void *x)
{
    long i = INDEX(x);
    assert(i >= 0 && i < STRESS_ITEMS);
    unsigned char was = atomic_fetch_add_explicit(&taken[i], 1, memory_order_relaxed);
    if (was != 0) {
        fprintf(stderr, "item %ld taken twice\n", i);
        abort();
    }
    atomic_fetch_add_explicit(&total_taken, 1, memory_order_relaxed);
}

static void *thief(void *arg)
{
    (void)arg;
    for (;;) {
        void *x = deque_steal(&sd);
        if (x)
            take(x);
        else if (atomic_load(&owner_done) && deque_size(&sd) == 0)
            break;
    }
    return NULL;
}

static void test_stress(void)
{
    taken = calloc(STRESS_ITEMS, 1);
    deque_init(&sd, 3);
    pthread_t th[THIEVES];
    for (int i = 0; i < THIEVES; i++)
        pthread_create(&th[i], NULL, thief, NULL);
    unsigned seed = 12345;
    for (long i = 0; i < STRESS_ITEMS; i++) {
        deque_push(&sd, ITEM(i));
        seed = seed * 1103515245u + 12345u;
        /* Pop now and then, sometimes in bursts, so that the owner and the
         * thieves race for the last item often. */
        unsigned pops = (seed >> 16) % 4 == 0 ? (seed >> 20) % 4 : 0;
        for (unsigned k = 0; k < pops; k++) {
            void *x = deque_pop(&sd);
            if (!x)
                break;
            take(x);
        }
    }
    void *x;
    while ((x = deque_pop(&sd)) != NULL)
        take(x);
    atomic_store(&owner_done, 1);
    for (int i = 0; i < THIEVES; i++)
        pthread_join(th[i], NULL);
    assert(atomic_load(&total_taken) == STRESS_ITEMS);
    for (long i = 0; i < STRESS_ITEMS; i++)
        assert(taken[i] == 1);
    deque_destroy(&sd);
    free((void *)taken);
}

int main(void)
{
    test_single();
    test_zeroed();
    test_stress();
    printf("test_deque: ok\n");
    return 0;
}
