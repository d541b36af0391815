/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The source text a profile carries, so that it shows code on a machine
 * without the sources: the files that hold sampled lines, the most
 * sampled first, up to a total size; what did not fit or could not be
 * read is named with the reason. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* What a profile carries by default: 4 MiB of source text. */
#define MG_SOURCE_BUNDLE_DEFAULT_LIMIT ((gsize) 4 * 1024 * 1024)

typedef struct {
  char *path;  /* as the frames name it (absolute) */
  GBytes *text; /* the file's bytes, as they were at the end of the run */
} MgSourceText;

typedef struct {
  char *path;
  char *reason; /* translated: why it is not in the bundle */
} MgSourceOmission;

void mg_source_text_free (MgSourceText *text);
void mg_source_omission_free (MgSourceOmission *omission);

#define MG_TYPE_SOURCE_BUNDLE (mg_source_bundle_get_type ())
G_DECLARE_FINAL_TYPE (MgSourceBundle, mg_source_bundle, MG, SOURCE_BUNDLE, GObject)

/* LIMIT: the total bytes of text kept. */
MgSourceBundle *mg_source_bundle_new (gsize limit);

/* Counts SAMPLES more on FILE (a frame's source file); a file added
 * again adds up. Files with more samples are kept first. */
void mg_source_bundle_add (MgSourceBundle *self, const char *file, guint64 samples);

/* Reads the files added, the most sampled first (then by path), each
 * whole while the total stays within the limit; a file too large for
 * what is left, unreadable or not text is left out with its reason and
 * smaller ones after it are still tried. Call once, after the adds. */
void mg_source_bundle_collect (MgSourceBundle *self);

/* MgSourceText items, in the order they were kept. */
GPtrArray *mg_source_bundle_get_texts (MgSourceBundle *self);
/* MgSourceOmission items, in the order they were tried. */
GPtrArray *mg_source_bundle_get_omissions (MgSourceBundle *self);
/* The bytes kept, at most the limit. */
gsize mg_source_bundle_get_size (MgSourceBundle *self);

G_END_DECLS
