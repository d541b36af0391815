/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The merge of records into a profile (app/profile/mg-merge.c): any bytes
 * as the one record of a run folder, merged when the reader takes it, with
 * a definition for every metric it names so that the values are used.
 * The folder's record is a symbolic link to the input's memfd, made once:
 * writing each input into the folder (a temporary file, fsync, rename) cost
 * more than the merge itself. */
#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "fuzz-record-input.h"
#include "profile/mg-merge.h"
#include "defs/mg-metric-def.h"
#include "profile/mg-record-reader.h"

static char *folder;
static char *record_path;

static void
remove_folder (void)
{
  g_unlink (record_path);
  g_rmdir (folder);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);
  g_autoptr (MgRecordFile) record = NULL;
  g_autoptr (MgProfile) profile = NULL;
  const char *argv[] = { "fuzz", NULL };
  MgMergeInput input = { .metrics = metrics, .argv = argv, .working_dir = "/" };
  const char *input_path;

  input_path = fuzz_record_input (data, size);
  if (folder == NULL)
    {
      int linked;

      folder = g_dir_make_tmp ("metrograph-fuzz-XXXXXX", NULL);
      g_assert (folder != NULL);
      record_path = g_build_filename (folder, "host.1.1.mgrec", NULL);
      linked = symlink (input_path, record_path);
      g_assert (linked == 0);
      atexit (remove_folder);
    }
  /* Refused records would be refused by the merge as well. */
  record = mg_record_file_read (input_path, NULL);
  if (record == NULL)
    return 0;
  /* Definitions come from a catalogue: one per id. */
  for (guint m = 0; m < record->header.n_metrics && m < 8; m++)
    {
      MgMetricDef *def;
      gboolean seen = FALSE;

      for (guint d = 0; d < metrics->len; d++)
        seen |= g_strcmp0 (((MgMetricDef *) g_ptr_array_index (metrics, d))->id,
                           record->metrics[m].id) == 0;
      if (seen)
        continue;
      def = mg_metric_def_new ();
      def->id = g_strdup (record->metrics[m].id);
      def->domain = m % 2 ? MG_DOMAIN_SINGLE_VALUE : MG_DOMAIN_TIME;
      g_ptr_array_add (metrics, def);
    }
  profile = mg_merge_records (folder, &input, &error);
  g_assert (profile != NULL || error != NULL);
  return 0;
}
