/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One metric definition file (spec chapter 2, plus what real files carry),
 * parsed with libxml2 into plain data. Problems become diagnostics: a broken
 * metric skips that metric, a malformed file yields one error. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-diagnostic.h"
#include "mg-metric-def.h"

G_BEGIN_DECLS

typedef struct {
  char *path;
  char *version;       /* as written, NULL when absent */
  GPtrArray *metrics;  /* MgMetricDef*, file order */
  GPtrArray *groups;   /* MgMetricGroup* */
  GPtrArray *sources;  /* MgSourceDef* (library_path not resolved yet) */
} MgDefinitionFile;

/* Returns NULL when the file cannot be read or is not well-formed XML; the
 * reason is then one error in @diagnostics. */
MgDefinitionFile *mg_definition_file_load (const char *path, GPtrArray *diagnostics);
MgDefinitionFile *mg_definition_file_load_from_data (const char *data, gsize length,
                                                     const char *path,
                                                     GPtrArray *diagnostics);
/* An empty file for definitions made without XML (Score-P plugins). */
MgDefinitionFile *mg_definition_file_new (const char *path);
void mg_definition_file_free (MgDefinitionFile *file);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgDefinitionFile, mg_definition_file_free)

G_END_DECLS
