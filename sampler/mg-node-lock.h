/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The node leader's lock file (<record_dir>/<run_id>.<host>.node-lock)
 * says who leads besides being locked: a program that closes every
 * descriptor it did not open (closefrom, close_range: daemons and
 * sandboxes do) lets go of the leader's flock, and the next process to
 * load its plugins won the election too, a second leader on the node.
 * A Score-P plugin's once-per-run lock says so the same way. */
#ifndef MG_NODE_LOCK_H
#define MG_NODE_LOCK_H

#include <stdbool.h>
#include <sys/types.h>

/* When process pid started (field 22 of /proc/PID/stat, clock ticks since
 * boot); 0 when it does not exist. */
__attribute__((visibility("hidden"))) unsigned long long mg_node_lock_start_time (pid_t pid);

/* After this process took the flock on fd: true when it leads, with its
 * pid and start written in; false when the file names another process
 * that still lives (a leader whose descriptor the program closed). */
__attribute__((visibility("hidden"))) bool mg_node_lock_claim (int fd);

#endif /* MG_NODE_LOCK_H */
