/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Names made fit for one line of display (mg-display-text.h). */
#include "mg-config.h"

#include <string.h>

#include "mg-display-text.h"

char *
mg_display_one_line (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  GString *out;

  if (strpbrk (valid, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11"
                      "\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f") == NULL)
    return g_steal_pointer (&valid);
  out = g_string_sized_new (strlen (valid) + 8);
  for (const char *c = valid; *c != '\0'; c++)
    {
      switch (*c)
        {
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          if ((guchar) *c < 0x20 || *c == 0x7f)
            g_string_append_printf (out, "\\x%02x", (guchar) *c);
          else
            g_string_append_c (out, *c);
        }
    }
  return g_string_free (out, FALSE);
}

glong
mg_display_width (const char *text)
{
  glong width = 0;

  for (const char *c = text; *c != '\0'; c = g_utf8_next_char (c))
    {
      gunichar u = g_utf8_get_char (c);

      width += g_unichar_iszerowidth (u) ? 0 : g_unichar_iswide (u) ? 2 : 1;
    }
  return width;
}
