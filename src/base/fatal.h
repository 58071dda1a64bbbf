/* fatal.h — the runtime's two ways of speaking up: a warning, or stopping the program. */
#ifndef ILAN_BASE_FATAL_H
#define ILAN_BASE_FATAL_H

/* Prints "ilan: <message>" on stderr and continues. */
void ilan_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints a message as libgomp prints its own ("\nlibgomp: <message>\n" on
 * stderr, stdout flushed first) and continues: the error directive. */
void ilan_say_as_libgomp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "<message>" as libgomp prints its fatal errors (see
 * ilan_say_as_libgomp) and stops the program (exit status 1, as libgomp). */
_Noreturn void ilan_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Stops the program because `construct` (an entry point name) is not
 * implemented by this build of ilan. */
_Noreturn void ilan_unsupported(const char *construct);

#endif
