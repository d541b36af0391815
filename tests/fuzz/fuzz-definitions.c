/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metric definition files (app/defs/mg-definition-file.c): any bytes as
 * the XML of one file; every diagnostic is turned into its message. */
#include <glib.h>

#include "fuzz-input.h"
#include "defs/mg-definition-file.h"
#include "defs/mg-diagnostic.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) file = mg_definition_file_load_from_data ((const char *) data, size,
                                                                         "fuzz.xml", diagnostics);

  /* NULL only with the reason as a diagnostic. */
  g_assert (file != NULL || diagnostics->len > 0);
  for (guint i = 0; i < diagnostics->len; i++)
    g_free (mg_diagnostic_to_string (g_ptr_array_index (diagnostics, i)));
  return 0;
}
