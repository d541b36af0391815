/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Descriptors the sampler keeps (locks, the threads' folder) out of the
 * program's way: close-on-exec, at a number the program does not reach and
 * that does not count against its RLIMIT_NOFILE; under a hard limit that
 * leaves no such number, not kept (mg_keep_fd_or_not, mg_hold_lock). */
#ifndef MG_HIGH_FD_H
#define MG_HIGH_FD_H

#define MG_HIDDEN_FN __attribute__((visibility("hidden")))

/* The lowest number a kept descriptor takes above the soft limit. */
#define MG_HIGH_FD_MIN 512

/* Moves @fd to a high number (closing @fd) and returns that; @fd itself
 * when it cannot be moved (it stays close-on-exec if it was). */
MG_HIDDEN_FN int mg_high_fd (int fd);

/* For what can be opened again each time it is needed (a /proc file, the
 * threads' folder): moves @fd out of the way as mg_high_fd does and
 * returns the new descriptor (@fd closed), or returns -1 with errno
 * EMFILE, @fd left open as it was, when it is not kept: it could only go
 * below a soft limit of fewer than FD_SETSIZE + 64 (the hard limit leaves
 * no room above it), where it would take one of the numbers the program
 * reaches (`ulimit -n 16`: 12 of its 13), or no number out of the way is
 * free. The caller then uses @fd for this one reading, closes it, and
 * opens the file again the next time. */
MG_HIDDEN_FN int mg_keep_fd_or_not (int fd);

/* For a descriptor that holds a flock(2) lock for the process's life (the
 * node leader's, a Score-P plugin's once-per-run lock), which cannot be
 * opened again: kept as by mg_keep_fd_or_not and returned; where that is
 * not kept, the lock is held by a mapping of its file instead (the lock
 * lasts as long as its open file description, which the mapping holds,
 * and goes with the process or at exec; a fork child does not inherit
 * it), @fd is closed and -1 returned, so that the program keeps every
 * number. Where the file cannot be mapped, as mg_high_fd. */
MG_HIDDEN_FN int mg_hold_lock (int fd);

#endif /* MG_HIGH_FD_H */
