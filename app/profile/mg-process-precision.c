/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-process-precision.h"

#include <glib/gi18n.h>
#include <string.h>

/* Indexed by MgProcessPrecision. */
static const char *const keywords[] = { "exact", "single" };

G_STATIC_ASSERT (G_N_ELEMENTS (keywords) == MG_PROCESS_PRECISION_LAST + 1);

const char *
mg_process_precision_to_keyword (MgProcessPrecision precision)
{
  g_return_val_if_fail (precision <= MG_PROCESS_PRECISION_LAST, NULL);
  return keywords[precision];
}

gboolean
mg_process_precision_from_keyword (const char *keyword, MgProcessPrecision *precision)
{
  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (keyword != NULL && strcmp (keyword, keywords[i]) == 0)
      {
        *precision = (MgProcessPrecision) i;
        return TRUE;
      }
  return FALSE;
}

char *
mg_process_precision_list_keywords (void)
{
  /* Translators: the two keywords of --process-precision (not translated) */
  return g_strdup_printf (_("%s or %s"), keywords[0], keywords[1]);
}
