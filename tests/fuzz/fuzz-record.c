/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sampler records (app/profile/mg-record-reader.c): any bytes as a record
 * file; a record the reader takes is walked as the merge walks it. The
 * merge itself has its own, slower harness (fuzz-merge.c). */
#include <glib.h>

#include "fuzz-input.h"
#include "fuzz-record-input.h"
#include "profile/mg-record-reader.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgRecordFile) record = mg_record_file_read (fuzz_record_input (data, size), &error);
  double sum = 0;

  if (record == NULL)
    {
      g_assert (error != NULL);
      return 0;
    }
  for (guint i = 0; i < record->n_samples; i++)
    {
      const MgRecordValue *values = mg_record_file_get_values (record, i);

      sum += (double) mg_record_file_get_sample (record, i)->t_end_ns;
      for (guint m = 0; m < record->header.n_metrics; m++)
        sum += values[m].mean;
    }
  (void) sum;
  return 0;
}
