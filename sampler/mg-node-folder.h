/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef MG_NODE_FOLDER_H
#define MG_NODE_FOLDER_H

#include <stddef.h>

/* When plan_path does not exist on this node and the launcher passed the
 * plan's text (MG_PLAN_TEXT_ENV), makes its folder (the run folder) and
 * writes the text there, so that the sampler and any plugin that reads the
 * plan find it. Silent: a plan still missing is reported by its loader. */
__attribute__((visibility("hidden"))) void mg_node_folder_restore_plan (const char *plan_path);

/* Makes the plan's record folder (<run folder>/records) and its run folder
 * when this node does not have them. Returns 0 when the folder exists,
 * else -1 with a message in err. */
__attribute__((visibility("hidden"))) int mg_node_folder_ensure_records (const char *record_dir,
                                                                        char *err, size_t err_len);

#endif /* MG_NODE_FOLDER_H */
