/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The inside of MgProfile, shared by the files of app/profile only: the
 * builder and the file loader fill it, the getters of mg-profile.c read it.
 * Not for use outside app/profile. */
#pragma once

#include "mg-process-precision.h"
#include "mg-process-roles.h"
#include "mg-profile.h"
#include "mg-profile-source.h"

G_BEGIN_DECLS

/* A process's block in a format 3 or 4 file, or packed by the merge. */
typedef struct {
  const guint8 *block;           /* in backing, filled by source on first use */
  gsize size;
  const guint8 *reported;        /* n_metrics */
  double *memory;                /* decoded times and values, or NULL */
  gboolean damaged;
} MgPackedProcess;

/* Decoded processes kept at once: the viewer shows one, tests compare two. */
#define MG_PROFILE_UNPACKED_MAX 16

typedef struct _MgProfileCodeIndex MgProfileCodeIndex;

struct _MgProfile {
  GObject parent_instance;

  MgRunInfo run;
  GPtrArray *metrics;            /* MgMetricDef*, owned */
  GPtrArray *groups;             /* MgMetricGroup*, owned */

  guint n_windows;
  const double *window_starts;   /* n_windows */
  const double *window_ends;

  /* Per metric (n_metrics). Aggregates live in two blocks, metric-major:
   * doubles [metric][mins, maxs, means, vars, sums][window] and
   * gint32 [metric][min_process, max_process][window]. */
  MgSeries *series;
  MgSingleValue *singles;

  GArray *processes;             /* MgProcessInfo */
  gsize roles_known;             /* their helper flags are set (g_once) */
  MgHelperRule helper_rule;      /* the edition its aggregates were merged with */
  /* [process * n_metrics + metric]; each process's values are one block
   * [metric][mins, maxs, means][sample] beside one block of times. */
  MgProcessSeries *process_series;
  gsize *process_n;              /* samples per process, reported or not */

  /* Format 3 files: each process's compact block (mg-process-block.h),
   * read from the file and decoded when the process is first asked for;
   * only the MG_PROFILE_UNPACKED_MAX processes asked for last stay decoded.
   * NULL for profiles built in memory and older formats. */
  MgPackedProcess *packed;       /* n_processes */
  MgProcessPrecision packed_precision; /* what the packed blocks hold at most */
  /* What saving stores the processes' series at: never finer than
   * packed_precision (mg_profile_set_process_precision). */
  MgProcessPrecision process_precision;
  GQueue unpacked;               /* process indices, most recently asked for first */
  GMutex unpack_lock;
  char *file_name;               /* for messages */

  GArray *plugin_errors;         /* MgPluginError */
  GArray *metric_errors;         /* MgMetricError */
  GArray *events;                /* MgProcessEvent */

  GPtrArray *blocks;             /* g_free'd memory the pointers above point into */
  GBytes *backing;               /* a loaded file the pointers may point into, or
                                  * what holds a live merge's rows (mg-row-slabs.h) */
  MgProfileSource *source;       /* reads the processes' series into backing, or NULL */
  GVariant *stacks;              /* the call stacks (MG_PAYLOAD_STACKS_TYPE), never NULL:
                                  * empty for a profile without them (mg-stack-set.h), and
                                  * for a loaded one until stacks_pending is decoded: read
                                  * them through mg_profile_peek_stacks */
  /* A profile opened from a format 7 file keeps its packed member (in the
   * payload read from the file, cheap parts checked, mg_stack_packed_check) and
   * decodes it into stacks on first use (mg-profile-stacks.c), under
   * stacks_lock: the GUI reads stacks from worker threads. */
  GVariant *stacks_pending;      /* the packed member not decoded yet, or NULL */
  GVariant *stacks_packed;       /* the packed member as read, which saving writes as it is
                                  * (NULL: pack stacks) */
  GError *stacks_error;          /* why decoding failed, or NULL */
  guint stacks_decodes;          /* how often stacks were decoded (tests) */
  GMutex stacks_lock;
  GVariant *code;                /* the frames' names and source text (MG_PAYLOAD_CODE_TYPE,
                                  * mg-profile-code.h), never NULL: empty when none */
  MgProfileCodeIndex *code_index; /* its indexes, made with it (stacks set first) */
  GVariant *threads;             /* the threads' ids and names (MG_PAYLOAD_THREADS_TYPE,
                                  * mg-profile-threads.h), never NULL: empty when none */
};

/* The call stacks (MG_PAYLOAD_STACKS_TYPE), decoded first if the profile
 * was opened with them packed (a damaged member reads as none:
 * mg_profile_read_stacks tells why). Owned by the profile. */
GVariant *mg_profile_peek_stacks (MgProfile *self);
/* The stacks' processes (a(ittua(a(ut)u)adada(uuu))) that include those
 * of process (-1: every one): before the whole member is decoded, one
 * process's are unpacked alone (a window opening shows one process's
 * thread activity), else the decoded list. A new reference. */
GVariant *mg_profile_dup_process_stacks (MgProfile *self, int process);
/* The stacks member's modules (a(ayay)), decoded or not: a new reference. */
GVariant *mg_profile_dup_stack_modules (MgProfile *self);

/* The indexes of a code member over the stacks' modules it names, or NULL
 * when the member is damaged (an index out of range, a path that is not a
 * name). */
MgProfileCodeIndex *mg_profile_code_index_new (GVariant *code, GVariant *modules);
void mg_profile_code_index_free (MgProfileCodeIndex *index);
/* The code member of a profile that carries none. */
GVariant *mg_profile_code_empty (void);
/* Sets the code member (after the stacks it names) and its indexes;
 * FALSE, keeping what it had, when the member is damaged. */
gboolean mg_profile_set_code (MgProfile *self, GVariant *code);
/* The threads member of a profile that names none. */
GVariant *mg_profile_threads_empty (void);
/* Sets the threads member (after the processes); FALSE when a process
 * index is out of range or a name is not a name (a NUL inside, none at
 * the end): then nothing is set. */
gboolean mg_profile_set_threads (MgProfile *self, GVariant *threads);

/* An empty profile with every container allocated. */
MgProfile *mg_profile_new_empty (void);
/* Memory the profile frees with itself; returns mem. */
gpointer mg_profile_take_block (MgProfile *self, gpointer mem);
/* Memory for large sample blocks, freed with g_free(): aligned so that the
 * kernel can back it with huge pages (first touch of 200 MB in 4 KiB pages
 * costs more than the merge itself on a virtual machine). */
gpointer mg_profile_alloc_big (gsize size);

/* Points series[] and singles[] at the two aggregate blocks. */
void mg_profile_set_aggregates (MgProfile *self, const double *values, const gint32 *indices);

/* Makes a process's series readable: a process of a file read from it; a
 * process of a format 3 file also decoded unless keep_packed (saving only
 * needs the block). FALSE with error naming the file and the process. */
gboolean mg_profile_fetch_process (MgProfile *self, guint process, gboolean keep_packed,
                                   GError **error);

void mg_run_info_clear (MgRunInfo *info);
void mg_process_info_clear (MgProcessInfo *info);
void mg_plugin_error_clear (MgPluginError *error);
void mg_metric_error_clear (MgMetricError *error);
void mg_process_event_clear (MgProcessEvent *event);
/* Empty arrays of MgPluginError, MgMetricError and MgProcessEvent that
 * clear what they drop: the profile's and the builder's. */
GArray *mg_plugin_errors_new (void);
GArray *mg_metric_errors_new (void);
GArray *mg_process_events_new (void);

/* Deep copies into *dest. */
void mg_process_info_copy_into (MgProcessInfo *dest, const MgProcessInfo *src);
void mg_plugin_error_copy_into (MgPluginError *dest, const MgPluginError *src);
void mg_metric_error_copy_into (MgMetricError *dest, const MgMetricError *src);
void mg_process_event_copy_into (MgProcessEvent *dest, const MgProcessEvent *src);

enum { MG_SERIES_N_DOUBLES = 5, MG_SERIES_N_INDICES = 2, MG_PROCESS_SERIES_N = 3 };

G_END_DECLS
