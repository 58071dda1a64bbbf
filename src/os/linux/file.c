/* file.c — safe writing of the runtime's own files on Linux: no symlinks, no FIFOs, no half-written files. */
#include "os/linux/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

const char *os_file_refusal(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT)
            return NULL;
        return errno == ELOOP ? "it is a symbolic link" : strerror(errno);
    }
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = S_ISFIFO(st.st_mode) ? "it is a FIFO" : S_ISDIR(st.st_mode) ? "it is a directory"
                                                                          : "it is not a regular file";
    close(fd);
    return why;
}

FILE *os_file_create_beside(const char *path, char *tmp, size_t size)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir;
    /* "<dir>/.<base>.XXXXXX": hidden, and in the same file system for rename. */
    if (dir + 1 + strlen(base) + 8 > size) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    memcpy(tmp, path, dir);
    tmp[dir] = '.';
    strcpy(tmp + dir + 1, base);
    strcat(tmp, ".XXXXXX");
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0)
        return NULL;
    /* mkostemp makes 0600; give the file the mode fopen would (0666 less
     * the umask). Reading the umask means setting it back at once. */
    mode_t mask = umask(022);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
    }
    return f;
}

int os_file_publish(FILE *f, const char *tmp, const char *path)
{
    int rc = 0;
    if (fflush(f) != 0 || ferror(f))
        rc = errno ? errno : EIO;
    if (fclose(f) != 0 && rc == 0)
        rc = errno ? errno : EIO;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = errno;
    if (rc != 0)
        unlink(tmp);
    return rc;
}

bool os_process_is_privileged(void)
{
    return getauxval(AT_SECURE) != 0;
}
