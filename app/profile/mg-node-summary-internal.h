/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The inside of a node summary (docs/node-summary.md), shared by its
 * reader (mg-node-summary.c) and its writer (mg-node-summary-writer.c):
 * the file's layout, the opened summary and the errors that name it. Not
 * for use outside app/profile. */
#pragma once

#include "mg-node-summary.h"

G_BEGIN_DECLS

#define MG_NODE_MAGIC "MGNODE\r\n"
#define MG_NODE_MAGIC_LEN 8
#define MG_NODE_VERSION 1u
#define MG_NODE_HEADER_LEN 24

/* A record's header fields that are not its layout (which follows from the
 * counts), its plugin and metric tables; strings as bytes (a record's
 * strings need not be UTF-8). */
#define MG_NODE_FACTS_TYPE "(iiiuayayayxxxuittutiayi)"
#define MG_NODE_PLUGIN_TYPE "(ayayuiay)"
#define MG_NODE_METRIC_TYPE "(ayuuuiuuxxay)"
/* Facts, plugins, metrics, number of slots, size of the block. */
#define MG_NODE_PROCESS_TYPE \
  "(" MG_NODE_FACTS_TYPE "a" MG_NODE_PLUGIN_TYPE "a" MG_NODE_METRIC_TYPE "ut)"
/* The same, for g_variant_new () and g_variant_get () with its tuples as
 * GVariant *. */
#define MG_NODE_PROCESS_FORMAT \
  "(@" MG_NODE_FACTS_TYPE "@a" MG_NODE_PLUGIN_TYPE "@a" MG_NODE_METRIC_TYPE "ut)"
/* The node's host, its processes. */
#define MG_NODE_INDEX_TYPE "(aya" MG_NODE_PROCESS_TYPE ")"

/* A block's parts besides the times (each slot's end): the slots' starts,
 * their raw sample counts, then per record metric its [min, max, mean] rows
 * and its counts. Integers travel as their bit patterns, which the block
 * keeps exactly. */
enum { MG_NODE_PART_STARTS, MG_NODE_PART_N_RAW, MG_NODE_PART_FIRST_METRIC };

static inline guint
mg_node_n_parts (guint n_metrics)
{
  return MG_NODE_PART_FIRST_METRIC + 2 * n_metrics;
}

struct _MgNodeSummary {
  gint ref_count;
  char *path;
  GVariant *index;
  guint n_processes;
  MgRecordHeader *headers;
  guint64 *offsets;            /* of each block in the file */
  guint64 *sizes;
};

typedef enum { MG_NODE_ON_OPEN, MG_NODE_ON_READ, MG_NODE_ON_WRITE } MgNodeSummaryStep;

/* Each sets error naming the file and returns FALSE. */
gboolean mg_node_damaged (GError **error, const char *path, const char *format, ...)
  G_GNUC_PRINTF (3, 4);
gboolean mg_node_io_error (GError **error, int saved, const char *path, MgNodeSummaryStep step);
/* len bytes at offset, or an error naming the file (a short read: mg_node_damaged). */
gboolean mg_node_read_exactly (int fd, void *buf, gsize len, guint64 offset, const char *path,
                       GError **error);

G_END_DECLS
