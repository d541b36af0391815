/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MPI rank lists as MAP's --select-ranks takes them ("5,6-10"): parsed,
 * checked and written back in a canonical form (sorted, merged ranges), the
 * form the run plan's select_ranks line carries. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_RANK_LIST_ERROR (mg_rank_list_error_quark ())
GQuark mg_rank_list_error_quark (void);

typedef enum {
  MG_RANK_LIST_ERROR_INVALID,
} MgRankListError;

/* Largest rank accepted (the record format stores ranks as int32). */
#define MG_RANK_MAX G_MAXINT32

/* Parses @text (comma-separated ranks N and ranges N-M with N <= M, blanks
 * around items allowed) into its canonical form: ascending, overlapping and
 * adjacent ranges merged, e.g. "7, 1-3,2,4" → "1-4,7". On error, the message
 * names the bad part. */
char *mg_rank_list_normalise (const char *text, GError **error);
/* TRUE when @rank is in the canonical or user-written list @list. */
gboolean mg_rank_list_contains (const char *list, int rank);
/* The canonical list of the given ranks (any order, repeats allowed). */
char *mg_rank_list_from_ranks (const int *ranks, guint n_ranks);

G_END_DECLS
