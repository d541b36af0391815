/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which node's files a process sees: its kernel's boot id and its mount
 * namespace. The launcher passes its own (MG_LAUNCH_NODE_ENV) so that a
 * sampler that sees the same files knows the run folder is the front
 * end's: when that is gone, the run has ended (a daemon that outlived the
 * program) and the sampler must not make it again, as it does on a node
 * whose /tmp is its own (docs/cli.md, "Programs that daemonise"). libc
 * only, no allocation. */
#ifndef MG_NODE_ID_H
#define MG_NODE_ID_H

#include <stdbool.h>
#include <stddef.h>

#define MG_LAUNCH_NODE_ENV "METROGRAPH_LAUNCH_NODE"

/* Writes "<boot id> <mount namespace inode>" into buf; false (and "") when
 * either cannot be read or buf is too small. */
bool mg_node_id (char *buf, size_t size);

/* True when value (the launcher's MG_LAUNCH_NODE_ENV, may be NULL) names
 * the node the calling process runs on. */
bool mg_node_id_is_ours (const char *value);

#endif /* MG_NODE_ID_H */
