/* instr.c — ilan_counter and ilan_counter_threads: the counters read back by the program itself. */
#include "abi/export.h"
#include "instr/counters.h"

ILAN_EXPORT long long ilan_counter(const char *name, int thread)
{
    return instr_counter_value(name, thread);
}

ILAN_EXPORT int ilan_counter_threads(void)
{
    return instr_flags.on ? (int)instr_thread_count() : 0;
}
