/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the front end and the sampler both know of a run folder: the name of
 * its records' folder, the "owner" file that names the process a folder
 * belongs to, and their permissions. The front end creates the folder; a
 * sampler on a node that cannot see it (a node-local /tmp) creates its own
 * copy by the same rules, owned by the sampled process. libc only. */
#ifndef MG_RUN_FOLDER_LAYOUT_H
#define MG_RUN_FOLDER_LAYOUT_H

#define MG_RUN_FOLDER_OWNER "owner"
#define MG_RUN_FOLDER_RECORDS "records"
/* The run folder and its records' folder: the user's only. */
#define MG_RUN_FOLDER_MODE 0700
/* The owner file: the process id and when that process started (field 22
 * of /proc/PID/stat, clock ticks since boot), which tells a live owner from
 * a reused process id. Written with the pid and the start as unsigned long
 * long. */
#define MG_RUN_FOLDER_OWNER_FORMAT "pid %d\nstart %llu\n"

#endif /* MG_RUN_FOLDER_LAYOUT_H */
