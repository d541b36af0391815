/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run's command line, quoted for a shell. */
#include "mg-config.h"

#include <string.h>

#include "mg-shell-line.h"

char *
mg_shell_line_from_run (const MgRunInfo *run)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; run->argv != NULL && run->argv[i] != NULL; i++)
    {
      const char *arg = run->argv[i];
      gboolean plain = *arg != '\0' && strpbrk (arg, " \t\n'\"\\$`*?[]{}()<>|&;#~!") == NULL;
      g_autofree char *quoted = plain ? g_strdup (arg) : g_shell_quote (arg);

      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, quoted);
    }
  return g_string_free (line, FALSE);
}
