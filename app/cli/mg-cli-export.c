/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --export=FILE.json|FILE.csv|FILE.folded|FILE.pb.gz PROFILE: the format
 * follows the extension. */
#include "mg-config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "symbols/mg-code-callbacks.h"
#include "profile/mg-export-csv.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-export-json.h"
#include "profile/mg-export-pprof.h"
#include "profile/mg-profile.h"

int
mg_cli_export (const MgCliOptions *options)
{
  const char *input = options->rest[0];
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  gboolean ok;

  profile = mg_profile_load (input, &error);
  if (profile == NULL)
    {
      mg_cli_print_error (_("cannot read the profile: %s (give a .mgprof file written by "
                            "metrograph --profile)"), error->message);
      return MG_EXIT_PROFILE_FILE;
    }
  if (g_str_has_suffix (options->export_file, ".folded"))
    {
      /* One symboliser for the whole export: each module opened once. */
      g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
      MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
      ok = mg_export_folded (profile, options->export_file, -1,
                             options->range != NULL ? options->range_start : -INFINITY,
                             options->range != NULL ? options->range_end : INFINITY, &namer,
                             &error);
    }
  else if (g_str_has_suffix (options->export_file, ".pb.gz"))
    {
      g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
      MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
      ok = mg_export_pprof (profile, options->export_file, -1,
                            options->range != NULL ? options->range_start : -INFINITY,
                            options->range != NULL ? options->range_end : INFINITY, &namer,
                            &error);
    }
  else if (g_str_has_suffix (options->export_file, ".json"))
    ok = mg_export_json (profile, options->export_file, &error);
  else
    ok = mg_export_csv (profile, options->export_file, &error);
  if (!ok)
    {
      mg_cli_print_error (_("cannot export to %s: %s (check that its folder exists and is "
                            "writable)"), options->export_file, error->message);
      return MG_EXIT_PROFILE_FILE;
    }
  return 0;
}
