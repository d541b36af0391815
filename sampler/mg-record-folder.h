/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef MG_RECORD_FOLDER_H
#define MG_RECORD_FOLDER_H

#include <stddef.h>

/* Makes the plan's record folder (<run folder>/records) and its run folder
 * when this node does not have them. Returns 0 when the folder exists,
 * else -1 with a message in err. */
__attribute__((visibility("hidden"))) int mg_record_folder_ensure (const char *record_dir,
                                                                   char *err, size_t err_len);

#endif /* MG_RECORD_FOLDER_H */
