/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Node summaries (app/profile/mg-node-summary.c): any bytes as a summary
 * file, its index's CRC made right by the harness so that every input
 * reaches the index's structure (the blocks keep their own CRCs, as a
 * profile's do: fuzz-profile reaches their decoding). A summary that opens
 * has every process read back and its slots walked, as the merge does. */
#include <glib.h>
#include <string.h>

#include "fuzz-input.h"
#include "profile/mg-crc32.h"
#include "profile/mg-node-summary.h"

enum { HEADER_LEN = 24 };

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree guint8 *file = g_memdup2 (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgNodeSummary) summary = NULL;
  guint64 len;
  double sum = 0;

  if (size >= HEADER_LEN)
    {
      memcpy (&len, file + 16, sizeof len);
      len = GUINT64_FROM_LE (len);
      if (len <= size - HEADER_LEN)
        {
          guint32 crc = GUINT32_TO_LE (mg_crc32_update (0, file + HEADER_LEN, len));

          memcpy (file + 12, &crc, sizeof crc);
        }
    }
  summary = mg_node_summary_open (fuzz_input_as_file (file, size), &error);
  if (summary == NULL)
    {
      g_assert (error != NULL);
      return 0;
    }
  for (guint p = 0; p < mg_node_summary_get_n_processes (summary); p++)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (MgRecordFile) r = mg_node_summary_read_process (summary, p, &local);

      g_assert ((r == NULL) == (local != NULL));
      for (guint i = 0; r != NULL && i < r->n_samples; i++)
        {
          const MgRecordValue *values = mg_record_file_get_values (r, i);

          sum += (double) mg_record_file_get_sample (r, i)->t_end_ns;
          for (guint m = 0; m < r->header.n_metrics; m++)
            sum += values[m].mean;
        }
    }
  (void) sum;
  return 0;
}
