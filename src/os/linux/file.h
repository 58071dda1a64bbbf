/* file.h — files the runtime writes (reports, traces): refusing unsafe targets, replacing a file in one step, and whether the process is privileged. */
#ifndef ILAN_OS_FILE_H
#define ILAN_OS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Why a path may not be written, or NULL when it may: it does not exist
 * yet, or it is a regular file. A symbolic link, a FIFO, a device or a
 * directory is refused; the check never blocks (a FIFO nobody reads is
 * opened non-blocking, read-only, and only looked at). */
const char *os_file_refusal(const char *path);

/* A new temporary file in the directory of `path`, for writing; its name
 * goes to tmp[0..size-1]. NULL (errno set) when it cannot be made. */
FILE *os_file_create_beside(const char *path, char *tmp, size_t size);

/* Closes f, the temporary file `tmp`, and renames it to `path` in one step
 * (a reader sees the old file or the whole new one); on any failure the
 * temporary file is removed. Returns 0 or an errno value. */
int os_file_publish(FILE *f, const char *tmp, const char *path);

/* True in a setuid, setgid or file-capability process (AT_SECURE), where
 * variables that name files must be ignored. */
bool os_process_is_privileged(void);

#endif
