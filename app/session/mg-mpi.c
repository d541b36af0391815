/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-mpi.h"

#include <string.h>
#include <unistd.h>

static const char *const launchers[] = {
  "mpirun", "mpiexec", "srun", "orterun", "prterun", "mpirun.openmpi", "mpiexec.openmpi",
  "mpirun.mpich", "mpiexec.mpich", "mpiexec.hydra", "aprun", "jsrun", NULL,
};

/* Launchers plus the daemons they start: these only relay the environment. */
static const char *const skip_programs[] = {
  "mpirun", "mpiexec", "srun", "orterun", "prterun", "mpirun.openmpi", "mpiexec.openmpi",
  "mpirun.mpich", "mpiexec.mpich", "mpiexec.hydra", "aprun", "jsrun", "orted", "prted",
  "hydra_pmi_proxy", "slurmstepd", NULL,
};

gboolean
mg_mpi_is_launcher (const char *argv0)
{
  g_autofree char *base = g_path_get_basename (argv0);

  return g_strv_contains (launchers, base);
}

const char *const *
mg_mpi_get_skip_programs (void)
{
  return skip_programs;
}

gboolean
mg_mpi_is_open_mpi (const char *mpirun_path)
{
  const char *argv[] = { mpirun_path, "--version", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL, &out,
                     &err, NULL, NULL))
    return FALSE;
  return (out != NULL && (strstr (out, "Open MPI") || strstr (out, "OpenRTE")))
         || (err != NULL && (strstr (err, "Open MPI") || strstr (err, "OpenRTE")));
}

GStrv
mg_mpi_build_command (const char *mpirun_path, guint n_processes, const char *const *pass_env,
                      const char *const *argv)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *n = g_strdup_printf ("%u", n_processes);

  g_strv_builder_add_many (builder, mpirun_path, "-n", n, NULL);
  if (mg_mpi_is_open_mpi (mpirun_path))
    {
      if (geteuid () == 0)
        g_strv_builder_add (builder, "--allow-run-as-root");
      if (n_processes > g_get_num_processors ())
        g_strv_builder_add (builder, "--oversubscribe");
      for (guint i = 0; pass_env != NULL && pass_env[i] != NULL; i++)
        g_strv_builder_add_many (builder, "-x", pass_env[i], NULL);
    }
  g_strv_builder_addv (builder, (const char **) argv);
  return g_strv_builder_end (builder);
}

static gboolean
is_number (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

char *
mg_mpi_guess_program (const char *const *argv)
{
  for (guint i = 1; argv[i] != NULL; i++)
    {
      char *path;

      if (argv[i][0] == '-' || is_number (argv[i]) || strchr (argv[i], '=') != NULL)
        continue;
      path = g_find_program_in_path (argv[i]);
      if (path != NULL)
        return path;
    }
  return NULL;
}
