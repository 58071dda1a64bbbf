/* mode.h — the ilan and numa taskloop modes' operations for the tasking engine. */
#ifndef ILAN_ILAN_MODE_H
#define ILAN_ILAN_MODE_H

#include "core/task_mode.h"

/* Installed at start-up (construct/runtime.c) unless ILAN_TASKLOOP=ws:
 * per-team groups and queues, and the ladder steps that read them. */
extern const struct task_mode_ops ilan_mode;

#endif
