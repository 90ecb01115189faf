/* A file the user names beside OUT_DIR (--junit FILE, --summary-md FILE),
 * written with OUT_DIR's care (docs/reliability.md, "Files beside
 * OUT_DIR"). */
#ifndef SR_UTIL_SIDEFILE_H
#define SR_UTIL_SIDEFILE_H

#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

/* Write data[0..len) to what path names, by what that is now:
 * - "-": std_out;
 * - absent, or a regular file: replaced atomically, a fresh temporary
 *   (".sweep-report.tmp.XXXXXXXX", whatever the length of path's own name)
 *   made beside it relative to its directory's descriptor (O_EXCL |
 *   O_NOFOLLOW), written, synced and renamed over it; mode 0666 less the
 *   umask;
 * - a character device or a FIFO (/dev/null, mkfifo), or a descriptor of
 *   the process (/dev/stdout, /dev/fd/N of a process substitution >(cmd),
 *   /proc/self/fd/N), or a symbolic link leading to one of these: written
 *   through, in place, never replaced (a descriptor of ours is written as
 *   it stands, after std_out is flushed);
 * - a symbolic link to a regular file or to nothing: the link is replaced
 *   as an entry, never written through;
 * - a directory, a block device or a socket: refused (exit 1).
 * From making the temporary to renaming it, the stop signals wait
 * (write_safe.h), so a signal never leaves one behind; a failure removes it.
 * A write that fails (/dev/full) is an error (exit 1) naming path. */
sr_error *sr_write_side_file(const char *path, const char *data, size_t len, FILE *std_out);

#endif
