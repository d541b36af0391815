/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-rank-list.h"

#include <glib/gi18n.h>
#include <string.h>

G_DEFINE_QUARK (mg-rank-list-error-quark, mg_rank_list_error)

typedef struct {
  gint64 first;
  gint64 last;
} Range;

/* A rank: decimal digits only (no sign, no blanks inside), at most MG_RANK_MAX. */
static gboolean
parse_rank (const char *text, gint64 *rank)
{
  guint64 value;

  if (*text == '\0' || !g_ascii_isdigit (*text))
    return FALSE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, MG_RANK_MAX, &value, NULL))
    return FALSE;
  *rank = (gint64) value;
  return TRUE;
}

static gboolean
parse_item (const char *item, Range *range)
{
  const char *dash = strchr (item, '-');
  g_autofree char *first = NULL;

  if (dash == NULL)
    {
      if (!parse_rank (item, &range->first))
        return FALSE;
      range->last = range->first;
      return TRUE;
    }
  first = g_strndup (item, (gsize) (dash - item));
  return parse_rank (first, &range->first) && parse_rank (dash + 1, &range->last)
         && range->first <= range->last;
}

static int
compare_ranges (gconstpointer a, gconstpointer b)
{
  const Range *x = a, *y = b;

  return x->first < y->first ? -1 : x->first > y->first;
}

/* Sorted, merged, as "a-b,c". */
static char *
ranges_to_string (GArray *ranges)
{
  GString *out = g_string_new (NULL);
  guint kept = 0;

  g_array_sort (ranges, compare_ranges);
  for (guint i = 0; i < ranges->len; i++)
    {
      Range *r = &g_array_index (ranges, Range, i);
      Range *last = kept > 0 ? &g_array_index (ranges, Range, kept - 1) : NULL;

      if (last != NULL && r->first <= last->last + 1)
        last->last = MAX (last->last, r->last);
      else
        g_array_index (ranges, Range, kept++) = *r;
    }
  for (guint i = 0; i < kept; i++)
    {
      const Range *r = &g_array_index (ranges, Range, i);

      if (i > 0)
        g_string_append_c (out, ',');
      if (r->first == r->last)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, r->first);
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT, r->first,
                                r->last);
    }
  return g_string_free (out, FALSE);
}

static GArray *
parse_list (const char *text, GError **error)
{
  g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  /* g_strsplit gives no item at all for "": that is one empty item too. */
  g_auto (GStrv) items = g_strsplit (text != NULL && *text != '\0' ? text : " ", ",", -1);

  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *item = g_strstrip (items[i]);
      Range range;

      if (*item == '\0')
        {
          g_set_error (error, MG_RANK_LIST_ERROR, MG_RANK_LIST_ERROR_INVALID,
                       _("an empty entry in the list of ranks (give ranks from 0 and ranges "
                         "FIRST-LAST, separated by commas, e.g. 5,6-10)"));
          return NULL;
        }
      if (!parse_item (item, &range))
        {
          g_set_error (error, MG_RANK_LIST_ERROR, MG_RANK_LIST_ERROR_INVALID,
                       _("“%s” is not a rank or a range of ranks (give ranks from 0 and "
                         "ranges FIRST-LAST, separated by commas, e.g. 5,6-10)"),
                       item);
          return NULL;
        }
      g_array_append_val (ranges, range);
    }
  return g_steal_pointer (&ranges);
}

char *
mg_rank_list_normalise (const char *text, GError **error)
{
  g_autoptr (GArray) ranges = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  ranges = parse_list (text, error);
  return ranges != NULL ? ranges_to_string (ranges) : NULL;
}

gboolean
mg_rank_list_contains (const char *list, int rank)
{
  g_autoptr (GArray) ranges = parse_list (list, NULL);

  for (guint i = 0; ranges != NULL && i < ranges->len; i++)
    {
      const Range *r = &g_array_index (ranges, Range, i);

      if (rank >= r->first && rank <= r->last)
        return TRUE;
    }
  return FALSE;
}

char *
mg_rank_list_from_ranks (const int *ranks, guint n_ranks)
{
  g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (Range));

  for (guint i = 0; i < n_ranks; i++)
    {
      Range range = { ranks[i], ranks[i] };

      g_array_append_val (ranges, range);
    }
  return ranges_to_string (ranges);
}
