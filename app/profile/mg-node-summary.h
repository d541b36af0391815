/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A node summary (docs/node-summary.md): one file holding the records of
 * one node's processes, reduced where they were written (`metrograph
 * --merge-node`), read back by the merge as the records themselves. Each
 * process keeps its record's facts, tables and every slot with its start
 * and end, its slots packed losslessly as a process block
 * (mg-process-block.h). GTK-free. */
#pragma once

#include <glib.h>

#include "mg-record-reader.h"

G_BEGIN_DECLS

typedef struct _MgNodeSummary MgNodeSummary;

/* Reads and checks a summary's index (its processes' facts), not their
 * slots. Errors are MG_RECORD_ERROR and name the file. */
MgNodeSummary *mg_node_summary_open (const char *path, GError **error);
MgNodeSummary *mg_node_summary_ref (MgNodeSummary *self);
void mg_node_summary_unref (MgNodeSummary *self);

const char *mg_node_summary_get_path (MgNodeSummary *self);
guint mg_node_summary_get_n_processes (MgNodeSummary *self);
/* Process i's record header, as its record had it (n_samples included). */
const MgRecordHeader *mg_node_summary_get_header (MgNodeSummary *self, guint i);
/* Process i as the record it was made of: the same header, tables and
 * slots, read from the file and checked (CRC, then the record's own rules). */
MgRecordFile *mg_node_summary_read_process (MgNodeSummary *self, guint i, GError **error);

/* What mg_node_summary_merge did. */
typedef struct {
  guint n_records;    /* records put into the summary (and removed) */
  guint n_kept;       /* processes of an earlier summary of the node kept */
  guint n_running;    /* records left: their process still runs here */
  guint n_damaged;    /* records left: damaged (the merge reports them) */
} MgNodeSummaryStats;

/* The file name of the summary of host's records. */
char *mg_node_summary_file_name (const char *host);

/* Reduces the records of host in record_dir (with its earlier summary, if
 * any) into record_dir/<host>.mgnode, written atomically, and then removes
 * the records it took. Nothing to take: nothing is written (running it
 * twice is harmless). Records of other hosts and their summaries are left
 * alone. */
gboolean mg_node_summary_merge (const char *record_dir, const char *host,
                                MgNodeSummaryStats *stats, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgNodeSummary, mg_node_summary_unref)

G_END_DECLS
