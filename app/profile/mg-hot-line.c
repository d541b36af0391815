/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-hot-line.h"

gboolean
mg_hot_line_beats (guint64 count, guint line, guint64 best_count, guint best_line)
{
  if (line == 0 || count == 0)
    return FALSE;
  if (best_count == 0 || count != best_count)
    return count > best_count;
  return line < best_line;
}
