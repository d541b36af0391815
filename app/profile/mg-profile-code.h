/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code a profile carries (format 7, docs/profile-format.md member 16),
 * so that it names its frames and shows their source on a machine that
 * has neither the binaries nor the sources: the names of every distinct
 * frame of its stacks (function, inline chain, file, line), resolved once
 * at the end of the run, and the text of the files that hold sampled
 * lines, within a bound, with the files left out named. The profile area
 * may not use app/symbols: the run's end hands the names in through an
 * MgStackNamer and the texts through an MgSourceCollector, which the
 * front ends back with MgSymbolizer and MgSourceBundle. */
#pragma once

#include <glib.h>

#include "mg-profile.h"
#include "mg-stack-namer.h"

G_BEGIN_DECLS

/* The source text a run stores by default: 4 MiB (as
 * MG_SOURCE_BUNDLE_DEFAULT_LIMIT). */
#define MG_PROFILE_SOURCE_DEFAULT_LIMIT ((gsize) 4 * 1024 * 1024)

/* One file's text, as collected. */
typedef struct {
  char *path;   /* as the frames name it */
  GBytes *text; /* its bytes at the end of the run */
} MgCodeSource;

/* One file left out, and why (translated). */
typedef struct {
  char *path;
  char *reason;
} MgCodeOmission;

void mg_code_source_free (MgCodeSource *source);
void mg_code_omission_free (MgCodeOmission *omission);

/* Reads the N_FILES FILES (each with its SAMPLES, the most sampled kept
 * first) within LIMIT bytes of text in all: appends MgCodeSource items to
 * texts and MgCodeOmission items to omissions (arrays that free them). */
typedef void (*MgSourceCollectFunc) (gpointer data, const char *const *files,
                                     const guint64 *samples, guint n_files, gsize limit,
                                     GPtrArray *texts, GPtrArray *omissions);

typedef struct {
  MgSourceCollectFunc func;
  gpointer data;
} MgSourceCollector;

/* Names every distinct frame of the profile's stacks once through namer
 * (a return address one byte back, as mg_stack_frame_names does) and
 * keeps what it names; then, when sources is not NULL, collects the text
 * of the files those names hold, each weighted by its samples, within
 * source_limit bytes. Replaces what the profile carried; saving stores
 * it. */
void mg_profile_store_code (MgProfile *profile, const MgStackNamer *namer,
                            const MgSourceCollector *sources, gsize source_limit);

/* Whether the profile names any frame itself (format 7 with names). */
gboolean mg_profile_has_stored_names (MgProfile *profile);

/* A namer that answers from the names the profile carries (FALSE for a
 * frame it does not name); valid while the profile lives. The exports and
 * the report ask it before their own namer (mg_stack_frame_names). */
MgStackNamer mg_profile_get_stored_namer (MgProfile *profile);

/* The same, by the index of the module in the profile's module table
 * (MgStackFrame.module): appends the stored names of (module,
 * lookup_vaddr), innermost first, and returns whether there were any. */
gboolean mg_profile_name_stored_frame (MgProfile *profile, guint32 module, guint64 lookup_vaddr,
                                       GPtrArray *names);

/* The text of FILE (a path as the stored names give it) as the profile
 * carries it, or NULL when it carries none (not sampled, left out, or a
 * profile of format 6 or older). The bytes are the file's, not
 * NUL-terminated; free with g_bytes_unref. Thread-safe. */
GBytes *mg_profile_get_source_text (MgProfile *profile, const char *file);

/* The files whose text the profile carries, in the order they were
 * kept; and the bytes in all. */
guint mg_profile_get_n_sources (MgProfile *profile);
const char *mg_profile_get_source_path (MgProfile *profile, guint index);
gsize mg_profile_get_sources_size (MgProfile *profile);
/* The bound the texts were collected within (0: none were collected). */
gsize mg_profile_get_source_limit (MgProfile *profile);

/* The files left out, each with why (translated when collected). */
guint mg_profile_get_n_source_omissions (MgProfile *profile);
const char *mg_profile_get_source_omission (MgProfile *profile, guint index,
                                            const char **reason);

G_END_DECLS
