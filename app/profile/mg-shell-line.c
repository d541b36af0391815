/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run's command line, quoted for a shell: UTF-8 text whatever the
 * arguments' bytes. */
#include "mg-config.h"

#include <string.h>

#include "mg-shell-line.h"

/* An argument that is not UTF-8 or holds a control character, in the
 * quoting of bash, zsh and ksh ($'...'): every byte of what is not valid
 * and every control character as \xHH, so that the line is
 * text and still gives back the same bytes. */
static char *
ansi_c_quote (const char *arg)
{
  GString *out = g_string_new ("$'");
  const char *p = arg;
  const char *end = arg + strlen (arg);

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2 || c < 0x20 || c == 0x7f)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      if (c == '\'' || c == '\\')
        g_string_append_c (out, '\\');
      g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/* A control character (a newline, a tab) would break the line it is
 * shown on: $'...' writes it as an escape. */
static gboolean
has_control (const char *arg)
{
  for (const char *c = arg; *c != '\0'; c++)
    if ((guchar) *c < 0x20 || *c == 0x7f)
      return TRUE;
  return FALSE;
}

static char *
quote (const char *arg)
{
  if (!g_utf8_validate (arg, -1, NULL) || has_control (arg))
    return ansi_c_quote (arg);
  if (*arg != '\0' && strpbrk (arg, " \t\n'\"\\$`*?[]{}()<>|&;#~!") == NULL)
    return g_strdup (arg);
  return g_shell_quote (arg);
}

char *
mg_shell_line_from_run (const MgRunInfo *run)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; run->argv != NULL && run->argv[i] != NULL; i++)
    {
      g_autofree char *quoted = quote (run->argv[i]);

      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, quoted);
    }
  return g_string_free (line, FALSE);
}
