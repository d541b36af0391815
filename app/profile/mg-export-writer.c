/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Buffered output for the exporters. */
#include "mg-config.h"

#include <math.h>
#include <stdlib.h>

#include <glib/gi18n.h>

#include "mg-export-writer.h"

struct _MgExportWriter {
  GOutputStream *out;
  GString *buffer;
  GError *error;
  char *path;                  /* for messages; NULL for a caller's stream */
};

enum { FLUSH_AT = 64 * 1024 };

MgExportWriter *
mg_export_writer_new (GOutputStream *out)
{
  MgExportWriter *self = g_new0 (MgExportWriter, 1);

  self->out = g_object_ref (out);
  self->buffer = g_string_sized_new (FLUSH_AT + 1024);
  return self;
}

MgExportWriter *
mg_export_writer_new_for_path (const char *path, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = NULL;
  MgExportWriter *self;

  /* GIO writes to a temporary file and renames it on close. */
  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (out == NULL)
    return NULL;
  self = mg_export_writer_new (G_OUTPUT_STREAM (out));
  self->path = g_strdup (path);
  return self;
}

static void
flush (MgExportWriter *self)
{
  if (self->error == NULL && self->buffer->len > 0)
    g_output_stream_write_all (self->out, self->buffer->str, self->buffer->len, NULL, NULL,
                               &self->error);
  g_string_truncate (self->buffer, 0);
}

void
mg_export_writer_puts (MgExportWriter *self, const char *text)
{
  g_string_append (self->buffer, text);
  if (self->buffer->len >= FLUSH_AT)
    flush (self);
}

void
mg_export_writer_printf (MgExportWriter *self, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_string_append_vprintf (self->buffer, format, args);
  va_end (args);
  if (self->buffer->len >= FLUSH_AT)
    flush (self);
}

void
mg_export_writer_double (MgExportWriter *self, double value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  /* 15 significant digits when they read back exactly, else 17. */
  g_ascii_formatd (text, sizeof text, "%.15g", value);
  if (g_ascii_strtod (text, NULL) != value)
    g_ascii_formatd (text, sizeof text, "%.17g", value);
  mg_export_writer_puts (self, text);
}

gboolean
mg_export_writer_close (MgExportWriter *self, GError **error)
{
  gboolean ok;

  flush (self);
  if (self->error != NULL)
    {
      g_autoptr(GCancellable) cancel = g_cancellable_new ();

      /* A cancelled close drops the temporary file and keeps the old one. */
      g_cancellable_cancel (cancel);
      g_output_stream_close (self->out, cancel, NULL);
    }
  else
    g_output_stream_close (self->out, NULL, &self->error);
  ok = self->error == NULL;
  if (!ok)
    {
      if (self->path != NULL)
        g_prefix_error (&self->error, _("Could not write “%s”: "), self->path);
      g_propagate_error (error, g_steal_pointer (&self->error));
    }
  g_object_unref (self->out);
  g_string_free (self->buffer, TRUE);
  g_free (self->path);
  g_free (self);
  return ok;
}
