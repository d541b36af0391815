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
/* 3: the stacks may name their threads (MG_NODE_STACKS_THREADS_TYPE);
 * 2 (still read): each process's call stacks after its block; 1 (still
 * read): none. */
#define MG_NODE_VERSION 3u
#define MG_NODE_VERSION_STACKS 2u
#define MG_NODE_VERSION_NO_STACKS 1u
#define MG_NODE_HEADER_LEN 24

/* A record's header fields that are not its layout (which follows from the
 * counts), its plugin and metric tables; strings as bytes (a record's
 * strings need not be UTF-8). */
#define MG_NODE_FACTS_TYPE "(iiiuayayayxxxuittutiayi)"
#define MG_NODE_PLUGIN_TYPE "(ayayuiay)"
#define MG_NODE_METRIC_TYPE "(ayuuuiuuxxay)"
/* Facts, plugins, metrics, number of slots, size of the block, size of
 * the stacks after it (0: none). */
#define MG_NODE_PROCESS_TYPE \
  "(" MG_NODE_FACTS_TYPE "a" MG_NODE_PLUGIN_TYPE "a" MG_NODE_METRIC_TYPE "utt)"
/* The same, for g_variant_new () with its tuples as GVariant *. */
#define MG_NODE_PROCESS_FORMAT \
  "(@" MG_NODE_FACTS_TYPE "@a" MG_NODE_PLUGIN_TYPE "@a" MG_NODE_METRIC_TYPE "utt)"
/* The node's host, its processes. */
#define MG_NODE_INDEX_TYPE "(aya" MG_NODE_PROCESS_TYPE ")"
/* Version 1's: no stacks. */
#define MG_NODE_INDEX_TYPE_1 \
  "(aya(" MG_NODE_FACTS_TYPE "a" MG_NODE_PLUGIN_TYPE "a" MG_NODE_METRIC_TYPE "ut))"
/* A process's stacks, unpacked: the section's state, signal, samples
 * taken, lost (table, busy, slot), threads; its modules (start, end, load
 * bias, build-id, path); its ready stacks (flags, frames innermost first);
 * each committed slot's samples lost, each one's number of pairs, and
 * all the slots' (stack, count) pairs one after the other. */
#define MG_NODE_STACKS_TYPE "(uittttta(tttayay)a(qat)auaua(uu))"
/* Version 3's, when the unpacked length's top bit (MG_NODE_STACKS_NAMED)
 * says so: the same and the threads table (tid, ordinal, name as bytes
 * without a NUL). Stacks of a version 2 summary kept in a version 3 one
 * keep their type: each packed part says its own. */
#define MG_NODE_STACKS_THREADS_TYPE "(uittttta(tttayay)a(qat)auaua(uu)a(iuay))"
#define MG_NODE_STACKS_NAMED (G_GUINT64_CONSTANT (1) << 63)

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
  guint version;
  GVariant *index;
  guint n_processes;
  MgRecordHeader *headers;
  guint64 *offsets;            /* of each block in the file */
  guint64 *sizes;
  guint64 *stack_sizes;        /* of the stacks after each block */
};

typedef enum { MG_NODE_ON_OPEN, MG_NODE_ON_READ, MG_NODE_ON_WRITE } MgNodeSummaryStep;

/* Each sets error naming the file and returns FALSE. */
gboolean mg_node_damaged (GError **error, const char *path, const char *format, ...)
  G_GNUC_PRINTF (3, 4);
gboolean mg_node_io_error (GError **error, int saved, const char *path, MgNodeSummaryStep step);
/* len bytes at offset, or an error naming the file (a short read: mg_node_damaged). */
gboolean mg_node_read_exactly (int fd, void *buf, gsize len, guint64 offset, const char *path,
                       GError **error);

/* A record's stacks (r->stacks, NULL: none) packed for its summary:
 * empty bytes when it has none (mg-node-summary-stacks.c). */
GBytes *mg_node_stacks_encode (const MgRecordFile *r);
/* Whether packed stacks match their CRC (empty ones do). */
gboolean mg_node_stacks_check (const guint8 *data, gsize size);
/* Sets r->stacks from packed stacks (none when size is 0), laid out as a
 * record's section for r's header and slots and checked by the record's
 * rules; an error naming the file and process i otherwise. */
gboolean mg_node_stacks_decode (const guint8 *data, gsize size, MgRecordFile *r,
                                const char *path, guint i, GError **error);

G_END_DECLS
