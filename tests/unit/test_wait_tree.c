/* test_wait_tree.c — the tree of wake-ups (seq_bump_tree, seq_relay): every sleeper a tree counted wakes, whether the count is exact, short or too high (plain pthreads). */
// ilan-test: tsan
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>
#include "core/wait.h"

#define THREADS 13 /* not a power of the fan-out: the last hop is partial */
#define ROUNDS 40

static seqword word;            /* what the threads sleep on */
static _Atomic unsigned relay;  /* the tree's tokens */
static _Atomic unsigned counted; /* threads that read the word this round */
static _Atomic unsigned woken;   /* wake-ups seen, over all rounds */
static pthread_barrier_t round_end;

/* A sleeper: each round, read the word, count itself, sleep until the
 * word moves, pass the tree on. A relay that is lost leaves it asleep:
 * the test then hangs and its time-out fails it. */
static void *sleeper(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        unsigned w = seq_read(&word);
        atomic_fetch_add(&counted, 1);
        seq_sleep(&word, w);
        seq_relay(&word, &relay);
        atomic_fetch_add(&woken, 1);
        pthread_barrier_wait(&round_end);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    pthread_barrier_init(&round_end, NULL, THREADS + 1);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, sleeper, NULL);
    for (int r = 0; r < ROUNDS; r++) {
        while (atomic_load(&counted) < THREADS)
            sched_yield();
        usleep(200); /* most of them now asleep in the kernel; any order is correct */
        /* The count a waker passes: exact, one short (a sleeper it did not
         * see: the bump keeps the sleepers bit, so the ordinary bump below
         * must wake it), or too high (tokens left over, dropped later). */
        unsigned count = r % 3 == 0 ? THREADS : r % 3 == 1 ? THREADS - 1 : THREADS + 4;
        unsigned before = seq_read(&word);
        seq_bump_tree(&word, &relay, count);
        assert(seq_read(&word) == before + SEQ_STEP);
        if (r % 3 == 1) {
            /* Whoever the short tree missed: an ordinary bump wakes all. */
            while (atomic_load(&woken) < (unsigned)(r * THREADS + THREADS - 1))
                sched_yield();
            seq_bump(&word);
        }
        atomic_store(&counted, 0);
        pthread_barrier_wait(&round_end);
        assert(atomic_load(&woken) == (unsigned)((r + 1) * THREADS));
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("test_wait_tree: %d rounds of %d sleepers woken down a tree\n", ROUNDS, THREADS);
    return 0;
}
