// cancel_off.c - cancel.c without OMP_CANCELLATION: cancel is a no-op and
// omp_get_cancellation() returns 0.
#include "cancel.c"
