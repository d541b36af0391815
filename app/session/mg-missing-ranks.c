/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-missing-ranks.h"

#include "mg-rank-list.h"
#include "profile/mg-record-folder.h"

#include <glib/gi18n.h>
#include <string.h>

typedef struct {
  const char *run_id;
  GHashTable *present;
  guint world;
} Survey;

static gboolean
note_rank (const char *path, const MgRecordHeader *header, gpointer data)
{
  Survey *s = data;

  if (s->run_id != NULL && strcmp (header->run_id, s->run_id) != 0)
    return TRUE;
  if (header->rank >= 0)
    g_hash_table_add (s->present, GINT_TO_POINTER (header->rank));
  if (header->world_size > 0)
    s->world = MAX (s->world, (guint) header->world_size);
  return TRUE;
}

/* Marks in @present the ranks the run's records (and node summaries) hold;
 * returns the largest world size they state. */
static guint
survey (const char *record_dir, const char *run_id, GHashTable *present)
{
  Survey s = { run_id, present, 0 };

  mg_record_folder_foreach (record_dir, note_rank, &s);
  return s.world;
}

char *
mg_missing_ranks_describe (const char *record_dir, const char *run_id, guint n_processes,
                           const char *select_ranks)
{
  g_autoptr (GHashTable) present = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) missing = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *list = NULL;
  guint world = survey (record_dir, run_id, present);

  if (select_ranks != NULL && *select_ranks == '\0')
    select_ranks = NULL;
  if (world == 0)
    world = n_processes;
  if (world <= 1)
    return NULL;
  for (guint r = 0; r < world; r++)
    {
      int rank = (int) r;

      if ((select_ranks == NULL || mg_rank_list_contains (select_ranks, rank))
          && !g_hash_table_contains (present, GINT_TO_POINTER (rank)))
        g_array_append_val (missing, rank);
    }
  if (missing->len == 0)
    return NULL;
  list = mg_rank_list_from_ranks ((const int *) (gpointer) missing->data, missing->len);
  /* Translators: %s is a list of MPI ranks ("1-3,6"), %u the job's rank count. */
  return g_strdup_printf (ngettext ("MPI rank %s of %u left no record here: the run ended before "
                                    "MPI_Finalize brought it from its node, or the rank was "
                                    "never sampled. Its values are not in the profile.",
                                    "MPI ranks %s of %u left no record here: the run ended before "
                                    "MPI_Finalize brought them from their nodes, or the ranks "
                                    "were never sampled. Their values are not in the profile.",
                                    missing->len),
                          list, world);
}
