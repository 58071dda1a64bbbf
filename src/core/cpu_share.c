/* cpu_share.c — the notes of which team thread runs where and whether it finished its region's part. */
#include "core/cpu_share.h"

#include <stdlib.h>

#include "base/fatal.h"
#include "base/tunables.h"
#include "os/linux/affinity.h"

struct cpu_share *cpu_share_reserve(struct cpu_share *cur, unsigned n)
{
    if (cur && cur->capacity >= n)
        return cur;
    struct cpu_share *s = malloc(sizeof *s + (size_t)n * sizeof s->slot[0]);
    if (!s)
        ilan_fatal("out of memory starting a parallel region of %u threads", n);
    s->capacity = n;
    s->older = cur;
    unsigned kept = cur ? cur->capacity : 0;
    for (unsigned i = 0; i < n; i++) {
        atomic_init(&s->slot[i].cpu,
                    i < kept ? atomic_load_explicit(&cur->slot[i].cpu, memory_order_relaxed) : -1);
        atomic_init(&s->slot[i].done_seq,
                    i < kept ? atomic_load_explicit(&cur->slot[i].done_seq, memory_order_relaxed)
                             : 0);
    }
    return s;
}

void cpu_share_free(struct cpu_share *s)
{
    while (s) {
        struct cpu_share *older = s->older;
        free(s);
        s = older;
    }
}

bool cpu_share_idle(const struct cpu_share *s, unsigned n, unsigned self, int cpu,
                    unsigned seq, bool master_counts)
{
    if (n > s->capacity)
        n = s->capacity;
    if (master_counts && self != 0 &&
        atomic_load_explicit(&s->slot[0].cpu, memory_order_relaxed) == cpu)
        return false;
    for (unsigned i = 1; i < n; i++)
        if (i != self && atomic_load_explicit(&s->slot[i].cpu, memory_order_relaxed) == cpu &&
            atomic_load_explicit(&s->slot[i].done_seq, memory_order_relaxed) != seq)
            return false;
    return true;
}

bool cpu_share_alone(struct cpu_share *s, unsigned staffed, unsigned busy, unsigned self,
                     unsigned seq, bool master_counts)
{
    if (staffed > ILAN_WAIT_ALONE_MAX_TEAM || busy > staffed)
        return false;
    int cpu = os_current_cpu();
    cpu_share_note_cpu(s, self, cpu);
    return cpu_share_idle(s, staffed, self, cpu, seq, master_counts);
}
