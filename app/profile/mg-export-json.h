/* SPDX-License-Identifier: GPL-3.0-or-later */
/* JSON export in the layout of MAP's `map --export` (docs/export.md), so
 * scripts written for MAP's JSON read Metrograph's. GTK-free. */
#pragma once

#include "mg-export-selection.h"
#include "mg-profile.h"

G_BEGIN_DECLS

/* Writes to path atomically. */
gboolean mg_export_json (MgProfile *profile, const char *path, GError **error);
/* Only the windows and processes of selection (NULL: all): the aggregates
 * over those, and with a selection of processes their own series too. */
gboolean mg_export_json_selected (MgProfile *profile, const char *path,
                                  const MgExportSelection *selection, GError **error);
gboolean mg_export_json_to_stream (MgProfile *profile, GOutputStream *out, GError **error);

G_END_DECLS
