/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-check.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "mg-mpi.h"
#include "mg-output-name.h"
#include "mg-rank-list.h"
#include "mg-run-options.h"
#include "mg-scorep-selection.h"

G_DEFINE_QUARK (mg-run-check-error-quark, mg_run_check_error)

static char *
base_folder (MgRunSettings *self)
{
  const char *folder = mg_run_settings_get_working_folder (self);

  return folder != NULL ? g_canonicalize_filename (folder, NULL) : g_get_current_dir ();
}

char *
mg_run_settings_resolve_program (MgRunSettings *self, GError **error)
{
  const char *name = mg_run_settings_get_program (self);
  g_autofree char *folder = base_folder (self);
  g_autofree char *path = NULL;

  if (name == NULL)
    {
      g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                   _("Choose the program to profile"));
      return NULL;
    }
  if (strchr (name, '/') == NULL)
    {
      path = g_find_program_in_path (name);
      if (path == NULL)
        {
          g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                       _("“%s” is not on PATH: check the name, or write its path (./%s)"),
                       name, name);
          return NULL;
        }
      return g_steal_pointer (&path);
    }
  path = g_canonicalize_filename (name, folder);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                   _("%s does not exist"), path);
      return NULL;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR) || !g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                   _("%s is not an executable program (chmod +x it?)"), path);
      return NULL;
    }
  return g_steal_pointer (&path);
}

static char *
check_folder (const char *folder, gboolean writable)
{
  if (folder == NULL)
    return NULL;
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    return g_strdup_printf (_("%s is not a folder"), folder);
  if (writable && access (folder, W_OK) != 0)
    return g_strdup_printf (_("%s cannot be written to"), folder);
  return NULL;
}

static char *
check_env_set (const char *const *entries)
{
  for (guint i = 0; entries[i] != NULL; i++)
    {
      const char *eq = strchr (entries[i], '=');

      if (eq == NULL || eq == entries[i])
        return g_strdup_printf (_("“%s”: write NAME=value to set it, or -NAME to remove it"),
                                entries[i]);
    }
  return NULL;
}

static char *
check_env_unset (const char *const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (*names[i] == '\0' || strchr (names[i], '=') != NULL)
      return g_strdup_printf (_("“%s” is not a variable name"), names[i]);
  return NULL;
}

static char *
check_output (MgRunSettings *self)
{
  const char *output = mg_run_settings_get_output (self);
  g_autofree char *folder = base_folder (self);
  g_autofree char *path = NULL;
  g_autofree char *parent = NULL;

  if (output == NULL)
    return check_folder (folder, TRUE);
  path = g_canonicalize_filename (output, folder);
  /* Read as the command line reads -o (mg_output_name_choose). */
  if (mg_output_name_is_folder (output, folder) || !g_str_has_suffix (path, MG_PROFILE_SUFFIX))
    return check_folder (path, TRUE);
  parent = g_path_get_dirname (path);
  return check_folder (parent, TRUE);
}

/* The rules between options, each decided here once; the command line
 * and the dialog's fields say them in their own words. */

/* --np starts mpirun: a program that is an MPI launcher itself would be
 * started N times, each starting its own ranks. */
static gboolean
np_with_launcher (MgRunSettings *self)
{
  const char *program = mg_run_settings_get_program (self);

  return mg_run_settings_get_n_processes (self) > 0 && program != NULL
         && mg_mpi_is_launcher (program);
}

/* No rank of --np's processes is selected. The canonical list starts with
 * its lowest rank. */
static gboolean
ranks_beyond_processes (MgRunSettings *self)
{
  const char *ranks = mg_run_settings_get_select_ranks (self);
  guint n = mg_run_settings_get_n_processes (self);
  g_autofree char *canonical = ranks != NULL ? mg_rank_list_normalise (ranks, NULL) : NULL;

  return canonical != NULL && n > 0 && g_ascii_strtoull (canonical, NULL, 10) >= n;
}

static gboolean
stop_before_start (MgRunSettings *self)
{
  double stop = mg_run_settings_get_stop_after (self);

  return stop > 0 && stop <= mg_run_settings_get_start_after (self);
}

/* Without an MPI launcher no process has a rank: all are sampled. */
static gboolean
ranks_without_mpi (MgRunSettings *self)
{
  const char *program = mg_run_settings_get_program (self);

  return mg_run_settings_get_select_ranks (self) != NULL
         && mg_run_settings_get_n_processes (self) == 0
         && (program == NULL || !mg_mpi_is_launcher (program));
}

static char *
check_select_ranks (MgRunSettings *self)
{
  const char *ranks = mg_run_settings_get_select_ranks (self);
  guint n = mg_run_settings_get_n_processes (self);
  g_autoptr (GError) error = NULL;
  g_autofree char *canonical = NULL;

  if (ranks == NULL)
    return NULL;
  canonical = mg_rank_list_normalise (ranks, &error);
  if (canonical == NULL)
    return g_strdup (error->message);
  if (ranks_beyond_processes (self))
    return g_strdup_printf (_("None of the ranks of the %u MPI processes (0 to %u) is selected: "
                              "nothing would be sampled"), n, n - 1);
  return NULL;
}

gboolean
mg_run_settings_check_options (MgRunSettings *self, GError **error)
{
  guint n = mg_run_settings_get_n_processes (self);

  if (stop_before_start (self))
    g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                 _("--stop-after must be later than --start-after"));
  else if (np_with_launcher (self))
    g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                 _("--np starts mpirun itself: give either --np=N PROGRAM or %s … PROGRAM"),
                 mg_run_settings_get_program (self));
  else if (ranks_beyond_processes (self))
    g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                 _("--select-ranks=%s selects none of the ranks of --np=%u (0 to %u): nothing "
                   "would be sampled"),
                 mg_run_settings_get_select_ranks (self), n, n - 1);
  else
    return TRUE;
  return FALSE;
}

GStrv
mg_run_settings_dup_warnings (MgRunSettings *self)
{
  g_autoptr (GStrvBuilder) warnings = g_strv_builder_new ();

  if (ranks_without_mpi (self))
    {
      g_autofree char *text =
        g_strdup_printf (_("--select-ranks=%s has no effect without MPI: every process is "
                           "sampled (give -n N, or start the program with mpirun or srun)"),
                         mg_run_settings_get_select_ranks (self));

      g_strv_builder_add (warnings, text);
    }
  g_auto (GStrv) notes = mg_scorep_selection_dup_notes (self);
  g_strv_builder_addv (warnings, (const char **) notes);
  return g_strv_builder_end (warnings);
}

char *
mg_run_settings_check_field (MgRunSettings *self, const char *property)
{
  g_autoptr (GError) error = NULL;

  if (strcmp (property, "program") == 0)
    {
      g_autofree char *path = mg_run_settings_resolve_program (self, &error);

      return path == NULL ? g_strdup (error->message) : NULL;
    }
  if (strcmp (property, "arguments") == 0)
    {
      g_auto (GStrv) argv = mg_run_settings_dup_argv (self, &error);

      return argv == NULL ? g_strdup_printf (_("Check the quotes: %s"), error->message) : NULL;
    }
  if (strcmp (property, "working-folder") == 0)
    return check_folder (mg_run_settings_get_working_folder (self), FALSE);
  if (strcmp (property, "env-set") == 0)
    return check_env_set (mg_run_settings_get_env_set (self));
  if (strcmp (property, "env-unset") == 0)
    return check_env_unset (mg_run_settings_get_env_unset (self));
  if (strcmp (property, "stop-after") == 0)
    return stop_before_start (self) ? g_strdup (_("Stop after must be later than start after"))
                                    : NULL;
  if (strcmp (property, "n-processes") == 0)
    return np_with_launcher (self)
             ? g_strdup_printf (_("%s starts the MPI processes itself: set MPI processes to Off"),
                                mg_run_settings_get_program (self))
             : NULL;
  if (strcmp (property, "output") == 0)
    return check_output (self);
  if (strcmp (property, "select-ranks") == 0)
    return check_select_ranks (self);
  if (strcmp (property, "scorep-plugins") == 0)
    {
      g_autoptr (GPtrArray) choices = mg_scorep_selection_get (self, NULL, &error);

      return choices == NULL ? g_strdup (error->message) : NULL;
    }
  return NULL;
}

gboolean
mg_run_settings_check (MgRunSettings *self, GError **error)
{
  static const struct { const char *property; const char *label; } fields[] = {
    { "working-folder", N_("Working folder") },
    { "program", N_("Program") },
    { "arguments", N_("Arguments") },
    { "env-set", N_("Environment") },
    { "env-unset", N_("Environment") },
    { "stop-after", N_("Stop after") },
    { "n-processes", N_("MPI processes") },
    { "output", N_("Save in") },
    { "select-ranks", N_("Sample ranks") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *message = mg_run_settings_check_field (self, fields[i].property);

      if (message != NULL)
        {
          g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID, "%s: %s",
                       _(fields[i].label), message);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
mg_run_parse_count (const char *text, guint min, guint empty_value, guint *value, char **message)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));

  if (*stripped == '\0')
    {
      *value = empty_value;
      return TRUE;
    }
  return mg_run_parse_count_value (stripped, min, value, message);
}

gboolean
mg_run_parse_seconds (const char *text, double *value, char **message)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));

  if (*stripped == '\0')
    {
      *value = 0;
      return TRUE;
    }
  return mg_run_parse_seconds_value (stripped, TRUE, value, message);
}

/* -o names a folder: "DIR/", or one that exists (from the working folder). */
static gboolean
is_folder_output (MgRunSettings *self)
{
  g_autofree char *folder = base_folder (self);

  return mg_output_name_is_folder (mg_run_settings_get_output (self), folder);
}

gboolean
mg_run_settings_check_output (MgRunSettings *self, GError **error)
{
  const char *output = mg_run_settings_get_output (self);
  g_autofree char *problem = NULL;

  if (output != NULL && mg_output_name_is_folder (output, NULL)
      && !g_file_test (output, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                   _("-o %s: there is no such folder (create it, or give a file name)"), output);
      return FALSE;
    }
  /* A file name the rules read as a folder (no .mgprof) that is none:
   * "is not a folder" would hide that the ending decides. */
  if (output != NULL && !is_folder_output (self) && !g_str_has_suffix (output, MG_PROFILE_SUFFIX))
    {
      g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
                   _("-o %s: a profile file's name ends in %s, and %s is no folder to save in "
                     "(checked before the program starts); give %s%s, or a folder that exists"),
                   output, MG_PROFILE_SUFFIX, output, output, MG_PROFILE_SUFFIX);
      return FALSE;
    }
  problem = mg_run_settings_check_field (self, "output");
  if (problem == NULL)
    return TRUE;
  g_set_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID,
               _("-o %s: %s, so the profile cannot be saved there (checked before the program "
                 "starts); choose another folder"),
               output != NULL ? output : ".", problem);
  return FALSE;
}
