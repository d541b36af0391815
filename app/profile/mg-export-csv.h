/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV export: one row per sample window, RFC 4180 (docs/export.md). */
#pragma once

#include "mg-export-selection.h"
#include "mg-profile.h"

G_BEGIN_DECLS

/* Writes to path atomically. */
gboolean mg_export_csv (MgProfile *profile, const char *path, GError **error);
/* Only the windows of selection (NULL: all), with the aggregates across
 * its processes (mg-export-selection.h). */
gboolean mg_export_csv_selected (MgProfile *profile, const char *path,
                                 const MgExportSelection *selection, GError **error);
gboolean mg_export_csv_to_stream (MgProfile *profile, GOutputStream *out, GError **error);

G_END_DECLS
