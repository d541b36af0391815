/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-cli-message.h"

#include "defs/mg-diagnostic.h"
#include "session/mg-run-recovery.h"

void
mg_cli_print_error (const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* One line: batch logs are read with grep. */
  g_strdelimit (message, "\n", ' ');
  g_printerr ("metrograph: %s\n", message);
}

void
mg_cli_print_profile_error (const char *input, const GError *error)
{
  g_autofree char *what_to_do = NULL;
  g_autofree char *run = mg_run_recovery_describe_folder (input, &what_to_do);

  if (run != NULL)
    mg_cli_print_error (_("cannot read the profile: %s (%s)"), run, what_to_do);
  else
    mg_cli_print_error (_("cannot read the profile: %s (give a .mgprof file written by "
                          "metrograph --profile)"), error->message);
}

void
mg_cli_print_diagnostic_list (GPtrArray *diagnostics)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *text = NULL;

      if (d->severity == MG_SEVERITY_NOTE)
        continue;
      text = mg_diagnostic_to_string (d);
      mg_cli_print_error ("%s", text);
    }
}

void
mg_cli_print_lines (const char *const *lines)
{
  for (guint i = 0; lines[i] != NULL; i++)
    g_printerr ("%s", lines[i]);
}
