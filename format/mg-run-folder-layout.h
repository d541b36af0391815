/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the front end and the sampler both know of a run folder: the name of
 * its records' folder, the "owner" file that names the process a folder
 * belongs to, their permissions, and how the plan reaches a node. The front end creates the folder; a
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
 * a reused process id in one PID namespace of one boot; then what makes
 * that pid mean something: the kernel's boot id
 * (/proc/sys/kernel/random/boot_id; containers share their host's), the
 * inode of the owner's PID namespace (/proc/self/ns/pid), its host name
 * (for messages: a UTS namespace may name the same kernel otherwise), and
 * whether the owner holds an open-file-description lock (F_OFD_SETLK,
 * write) on this file for its whole life, which the kernel drops when it
 * dies, in any namespace: 1 for the front end, 0 for a folder a sampler
 * made (its maker is not the only writer). Files of older versions have
 * the first two lines only. Written with the pid, the start as unsigned
 * long long, the boot id and host as strings, the namespace as unsigned
 * long long and the lock as int. */
#define MG_RUN_FOLDER_OWNER_FORMAT "pid %d\nstart %llu\nboot %s\npidns %llu\nhost %s\nlock %d\n"
#define MG_RUN_FOLDER_BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"
#define MG_RUN_FOLDER_PIDNS_PATH "/proc/self/ns/pid"

/* The plan's path, which the launcher puts in the program's environment:
 * the sampler and the plugins that read the plan find it there. */
#define MG_PLAN_ENV "METROGRAPH_PLAN"

/* The plan's text, which the launcher passes beside METROGRAPH_PLAN (its
 * path) for nodes that cannot read that path: a sampler there writes it to
 * the path first. Only plans up to MG_PLAN_TEXT_MAX bytes travel so (an
 * environment string must stay well below the kernel's 128 KiB). */
#define MG_PLAN_TEXT_ENV "METROGRAPH_PLAN_TEXT"
#define MG_PLAN_TEXT_MAX (64 * 1024)

#endif /* MG_RUN_FOLDER_LAYOUT_H */
