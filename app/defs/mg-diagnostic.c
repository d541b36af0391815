/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Diagnostics about definition files. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-diagnostic.h"

MgDiagnostic *
mg_diagnostic_new (const char *file, int line, MgSeverity severity, const char *message)
{
  MgDiagnostic *diagnostic = g_new0 (MgDiagnostic, 1);

  diagnostic->file = g_strdup (file);
  diagnostic->line = line;
  diagnostic->severity = severity;
  diagnostic->message = g_strdup (message);
  return diagnostic;
}

void
mg_diagnostic_free (MgDiagnostic *diagnostic)
{
  if (diagnostic == NULL)
    return;
  g_free (diagnostic->file);
  g_free (diagnostic->message);
  g_free (diagnostic);
}

GPtrArray *
mg_diagnostic_list_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) mg_diagnostic_free);
}

void
mg_diagnostic_add (GPtrArray *list, const char *file, int line, MgSeverity severity,
                   const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (list, mg_diagnostic_new (file, line, severity, message));
}

const char *
mg_severity_to_string (MgSeverity severity)
{
  switch (severity)
    {
    case MG_SEVERITY_NOTE:
      return _("note");
    case MG_SEVERITY_WARNING:
      return _("warning");
    case MG_SEVERITY_ERROR:
    default:
      return _("error");
    }
}

char *
mg_diagnostic_to_string (const MgDiagnostic *diagnostic)
{
  const char *severity = mg_severity_to_string (diagnostic->severity);

  if (diagnostic->file == NULL)
    return g_strdup_printf ("%s: %s", severity, diagnostic->message);
  if (diagnostic->line <= 0)
    return g_strdup_printf ("%s: %s: %s", diagnostic->file, severity, diagnostic->message);
  return g_strdup_printf ("%s:%d: %s: %s", diagnostic->file, diagnostic->line, severity,
                          diagnostic->message);
}
