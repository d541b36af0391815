/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Matching and suggestions for typed metric and group ids. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-id-suggest.h"

/* Levenshtein distance between @a and @b, or (@prefix) between @a and the
 * closest prefix of @b. Case-insensitive. */
static guint
edit_distance (const char *a, const char *b, gboolean prefix)
{
  size_t la = strlen (a), lb = strlen (b);
  g_autofree guint *previous = g_new (guint, lb + 1);
  g_autofree guint *current = g_new (guint, lb + 1);
  guint best;

  for (size_t j = 0; j <= lb; j++)
    previous[j] = (guint) j;
  for (size_t i = 1; i <= la; i++)
    {
      guint *swap;

      current[0] = (guint) i;
      for (size_t j = 1; j <= lb; j++)
        {
          guint cost = g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]) ? 0 : 1;

          current[j] = MIN (MIN (previous[j] + 1, current[j - 1] + 1), previous[j - 1] + cost);
        }
      swap = previous, previous = current, current = swap;
    }
  best = previous[lb];
  if (prefix)
    for (size_t j = 0; j <= lb; j++)
      best = MIN (best, previous[j]);
  return best;
}

typedef struct {
  const char *id;
  guint score;
  guint full;
} Scored;

static guint
score_of (const char *typed, const char *candidate, guint *full)
{
  const char *last = strrchr (candidate, '.');
  guint score;

  *full = edit_distance (typed, candidate, FALSE);
  score = *full;
  /* A prefix or the last part alone is a weaker match than the whole id. */
  score = MIN (score, edit_distance (typed, candidate, TRUE) + 1);
  if (last != NULL && last[1] != '\0')
    score = MIN (score, edit_distance (typed, last + 1, FALSE) + 1);
  return score;
}

static int
compare_scored (gconstpointer a, gconstpointer b)
{
  const Scored *x = a, *y = b;

  if (x->score != y->score)
    return x->score < y->score ? -1 : 1;
  if (x->full != y->full)
    return x->full < y->full ? -1 : 1;
  return strcmp (x->id, y->id);
}

GStrv
mg_id_suggest (const char *typed, GPtrArray *candidates, guint max)
{
  g_autoptr (GArray) scored = g_array_new (FALSE, FALSE, sizeof (Scored));
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  guint limit;

  g_return_val_if_fail (typed != NULL && candidates != NULL, NULL);

  /* Roughly one typo in three characters, at least two. */
  limit = MAX (2, (guint) strlen (typed) / 3);
  for (guint i = 0; i < candidates->len; i++)
    {
      Scored entry = { g_ptr_array_index (candidates, i), 0, 0 };

      entry.score = score_of (typed, entry.id, &entry.full);
      if (entry.score <= limit)
        g_array_append_val (scored, entry);
    }
  g_array_sort (scored, compare_scored);
  for (guint i = 0; i < scored->len && i < max; i++)
    g_strv_builder_add (builder, g_array_index (scored, Scored, i).id);
  return g_strv_builder_end (builder);
}

GStrv
mg_id_match (const char *typed, GPtrArray *candidates)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (typed != NULL && candidates != NULL, NULL);

  for (guint i = 0; i < candidates->len; i++)
    if (strcmp (typed, g_ptr_array_index (candidates, i)) == 0)
      {
        g_strv_builder_add (builder, typed);
        return g_strv_builder_end (builder);
      }
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *id = g_ptr_array_index (candidates, i);

      if (g_ascii_strcasecmp (typed, id) == 0 && g_hash_table_add (seen, (gpointer) id))
        g_strv_builder_add (builder, id);
    }
  return g_strv_builder_end (builder);
}

char *
mg_id_suggest_format (const char *const *ids)
{
  GString *text = g_string_new (NULL);
  guint n = ids != NULL ? g_strv_length ((char **) ids) : 0;

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (text, i + 1 == n ? _(" or ") : ", ");
      g_string_append_printf (text, "'%s'", ids[i]);
    }
  return g_string_free (text, FALSE);
}
