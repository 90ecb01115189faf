/* What the two writers of files the user asked for share (util/outset.h for
 * OUT_DIR, util/sidefile.h for --junit and --summary-md): the signals held
 * while something of theirs is half-made, fresh names made exclusively
 * beside a directory descriptor, a buffer written whole. */
#ifndef SR_UTIL_WRITE_SAFE_H
#define SR_UTIL_WRITE_SAFE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Block, in the calling thread, every signal whose default action ends the
 * process and that can be blocked, but for the faults a program raises on
 * itself (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT: those
 * cannot wait): SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1,
 * SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, the real-time
 * signals, ... A signal that comes meanwhile takes effect when old is set
 * back. Only SIGKILL (and a fault) can then stop the process half-way. The
 * writers run when no other thread is left (util/parallel.h joins its own). */
void sr_block_stop_signals(sigset_t *old);
void sr_restore_signals(const sigset_t *old);

/* Make a fresh entry in dir_fd named prefix + 8 random letters or digits
 * (mkstemp's and mkdtemp's rule, relative to the descriptor: never through a
 * link, never an entry that was there): a directory (mode 0700) when
 * directory, returning 0, else a file opened for writing (O_EXCL |
 * O_NOFOLLOW, mode 0666 less the umask), returning its descriptor. name
 * receives the name (size bytes; prefix must leave room for 8 more). -1 and
 * errno on failure. */
int sr_make_fresh(int dir_fd, const char *prefix, bool directory, char *name, size_t size);

/* write(2) until len bytes are written (EINTR retried). false and errno
 * when a write fails. */
bool sr_write_all(int fd, const char *data, size_t len);

#endif
