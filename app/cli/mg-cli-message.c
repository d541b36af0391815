/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-cli-message.h"

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
