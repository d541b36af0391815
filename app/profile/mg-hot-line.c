/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-hot-line.h"

gboolean
mg_hot_line_beats (const MgHotLine *candidate, const MgHotLine *best)
{
  if (candidate->line == 0 || candidate->total == 0)
    return FALSE;
  if (best->line == 0)
    return TRUE;
  if (candidate->self != best->self)
    return candidate->self > best->self;
  if (candidate->total != best->total)
    return candidate->total > best->total;
  return candidate->line < best->line;
}
