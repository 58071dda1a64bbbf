/* task_mode.c — the taskloop mode in force (see task_mode.h). */
#include "core/task_mode.h"

const struct task_mode_ops *task_mode;
