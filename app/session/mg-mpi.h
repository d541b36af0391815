/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MPI launchers: recognising mpirun / mpiexec / srun on a command line,
 * building the "mpirun -n N" command for --np, and the launcher programs the
 * sampler must skip. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when argv0's basename is an MPI or batch launcher (mpirun, mpiexec,
 * srun, orterun, …). */
gboolean mg_mpi_is_launcher (const char *argv0);
/* NULL-terminated basenames for the plan's skip_program lines. */
const char *const *mg_mpi_get_skip_programs (void);
/* TRUE when the mpirun at mpirun_path is Open MPI's ("mpirun --version"). */
gboolean mg_mpi_is_open_mpi (const char *mpirun_path);
/* "mpirun -n N [Open MPI: --allow-run-as-root as root, --oversubscribe when N
 * exceeds the cores, -x VAR for each of pass_env] argv…". */
GStrv mg_mpi_build_command (const char *mpirun_path, guint n_processes,
                            const char *const *pass_env, const char *const *argv);
/* The program an explicit launcher command runs: the first argument after
 * argv[0] that is not an option and names an executable file; NULL if none. */
char *mg_mpi_guess_program (const char *const *argv);

G_END_DECLS
