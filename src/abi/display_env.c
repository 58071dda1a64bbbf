/* display_env.c — omp_display_env (C and Fortran). */
#include <stdint.h>
#include "abi/export.h"
#include "construct/display_env.h"

ILAN_EXPORT void omp_display_env(int verbose)
{
    display_env(verbose != 0);
}

ILAN_EXPORT void omp_display_env_(const int32_t *verbose)
{
    display_env(*verbose != 0);
}

ILAN_EXPORT void omp_display_env_8_(const int64_t *verbose)
{
    display_env(*verbose != 0);
}
