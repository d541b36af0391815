/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Descriptors the sampler keeps (locks, the threads' folder) out of the
 * program's way: close-on-exec, at a number the program does not reach and
 * that does not count against its RLIMIT_NOFILE. */
#ifndef MG_HIGH_FD_H
#define MG_HIGH_FD_H

#define MG_HIDDEN_FN __attribute__((visibility("hidden")))

/* The lowest number a kept descriptor takes above the soft limit. */
#define MG_HIGH_FD_MIN 512

/* Moves @fd to a high number (closing @fd) and returns that; @fd itself
 * when it cannot be moved (it stays close-on-exec if it was). */
MG_HIDDEN_FN int mg_high_fd (int fd);

#endif /* MG_HIGH_FD_H */
