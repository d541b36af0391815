/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a run's record folder holds: the records of its processes and the
 * node summaries that replaced some of them (mg-node-summary.h). Readers
 * that only need the processes' headers (which ranks are there, which
 * still run, whether anything was sampled) see both alike. GTK-free. */
#pragma once

#include <glib.h>

#include "format/mg-record-format.h"

G_BEGIN_DECLS

/* Called with a file of the folder (a record, or the summary holding the
 * process) and the process's record header, strings terminated; return
 * FALSE to stop. */
typedef gboolean (*MgRecordHeaderFunc) (const char *path, const MgRecordHeader *header,
                                        gpointer data);

/* Which files of a record folder to list. */
typedef enum {
  MG_RECORD_FOLDER_RECORDS = 1 << 0,
  MG_RECORD_FOLDER_SUMMARIES = 1 << 1,
} MgRecordFolderFiles;

/* The names (not paths) of record_dir's files of those kinds, in name
 * order, so that what is built from them does not depend on the order the
 * file system lists them in; NULL with error when the folder cannot be read. */
GPtrArray *mg_record_folder_list (const char *record_dir, MgRecordFolderFiles files,
                                  GError **error);

/* Every process of record_dir, in no particular order; files that cannot
 * be read are skipped (the merge names them). */
void mg_record_folder_foreach (const char *record_dir, MgRecordHeaderFunc func, gpointer data);

G_END_DECLS
