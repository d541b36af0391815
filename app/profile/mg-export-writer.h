/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A small buffered text writer shared by the exporters: numbers in the C
 * locale with the fewest digits that read back exactly, and the atomic
 * file replacement. Errors stick: after the first, writes are ignored and
 * mg_export_writer_close() reports it. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _MgExportWriter MgExportWriter;

MgExportWriter *mg_export_writer_new (GOutputStream *out);
/* Replaces path atomically when closed without error. */
MgExportWriter *mg_export_writer_new_for_path (const char *path, GError **error);
void mg_export_writer_puts (MgExportWriter *self, const char *text);
void mg_export_writer_printf (MgExportWriter *self, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* Shortest round-trip form; the caller handles NaN and infinities. */
void mg_export_writer_double (MgExportWriter *self, double value);
/* Flushes and closes; frees the writer. */
gboolean mg_export_writer_close (MgExportWriter *self, GError **error);

G_END_DECLS
