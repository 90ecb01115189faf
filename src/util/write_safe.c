/* What the two writers share (write_safe.h). */
#include "util/write_safe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void sr_block_stop_signals(sigset_t *old)
{
    sigset_t set;
    sigfillset(&set);
    /* raised by the program on itself: blocked, they would still kill it
     * (or hang it), so they are left to act at once */
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT};
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        sigdelset(&set, faults[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

void sr_restore_signals(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

int sr_make_fresh(int dir_fd, const char *prefix, bool directory, char *name, size_t size)
{
    static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char r[8];
        if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
            /* no entropy yet (early boot): the pid, the clock and the attempt */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            uint64_t v = ((uint64_t)getpid() << 40) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
                         (uint64_t)attempt * 0x9E3779B97F4A7C15u;
            memcpy(r, &v, sizeof r);
        }
        char suffix[9];
        for (size_t i = 0; i < 8; i++)
            suffix[i] = chars[r[i] % (sizeof chars - 1)];
        suffix[8] = '\0';
        if ((size_t)snprintf(name, size, "%s%s", prefix, suffix) >= size) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = directory ? mkdirat(dir_fd, name, 0700)
                           : openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

bool sr_write_all(int fd, const char *data, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0) { /* nothing taken and no error: say so rather than loop */
            errno = EIO;
            return false;
        }
        done += (size_t)n;
    }
    return true;
}
