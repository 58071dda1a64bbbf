/* misc.c — the OpenMP 5.1 error directive at run time: GOMP_error and GOMP_warning. */
#include <stddef.h>
#include <stdlib.h>

#include "abi/export.h"
#include "base/fatal.h"

/* gcc passes the message with its length, or (size_t)-1 when it is a
 * NUL-terminated C string; Fortran messages have a length and no NUL.
 * A NULL message means the directive had no message clause. The text is
 * libgomp's, byte for byte. */
static void misc_say(const char *what, const char *msg, size_t msglen)
{
    if (msg == NULL)
        ilan_say_as_libgomp("%serror directive encountered", what);
    else if (msglen == (size_t)-1)
        ilan_say_as_libgomp("%serror directive encountered: %s", what, msg);
    else
        ilan_say_as_libgomp("%serror directive encountered: %.*s", what,
                            msglen > 1u << 30 ? 1 << 30 : (int)msglen, msg);
}

/* `#pragma omp error severity(warning) at(execution)`: report and go on. */
ILAN_EXPORT void GOMP_warning(const char *msg, size_t msglen)
{
    misc_say("", msg, msglen);
}

/* `#pragma omp error severity(fatal) at(execution)`: report and stop with
 * a failure status, as libgomp does. */
ILAN_EXPORT void GOMP_error(const char *msg, size_t msglen)
{
    misc_say("fatal error: ", msg, msglen);
    exit(EXIT_FAILURE);
}
