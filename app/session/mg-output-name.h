/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Names of profile files: MAP's default pattern, and suffixes that keep an
 * existing file from being overwritten. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_PROFILE_SUFFIX ".mgprof"

/* "<basename of program>_<N>p_<M>n_<YYYY-MM-DD_HH-MM>.mgprof", in local time. */
char *mg_output_name_default (const char *program, guint n_processes, guint n_nodes,
                              GDateTime *start);
/* MAP's full pattern "<program>_<N>p_<M>n[_<T>t]_<YYYY-MM-DD_HH-MM>.mgprof":
 * the "_<T>t" part only when n_threads > 0. */
char *mg_output_name_default_with_threads (const char *program, guint n_processes,
                                           guint n_nodes, guint n_threads, GDateTime *start);
/* T, the threads per process, as MAP takes it for OpenMP programs: the first
 * (outermost) value of OMP_NUM_THREADS in @envp ("8" or "8,2"), when that is
 * a whole number from 1; else 0 (no "_<T>t" part). */
guint mg_output_name_threads_from_environ (const char *const *envp);
/* TRUE when @output names a folder for the default name rather than a
 * file: it ends in "/" or is an existing folder (relative paths from
 * @base, NULL: the current folder). */
gboolean mg_output_name_is_folder (const char *output, const char *base);
/* Where a run's profile goes, the same for `metrograph --profile -o` and
 * the run dialog's "Save in": @output NULL, MAP's default name in @base;
 * @output a folder (mg_output_name_is_folder), the default name in it; else
 * the file @output. A default name never replaces a file
 * (mg_output_name_make_unique); a file given is replaced. Relative paths
 * are taken from @base and made absolute; @base NULL keeps them relative
 * to the current folder, as given. */
char *mg_output_name_choose (const char *output, const char *base, const char *program,
                             guint n_processes, guint n_nodes, guint n_threads,
                             GDateTime *start);
/* path itself when nothing exists there, else the first free
 * "<stem>-1<suffix>", "<stem>-2<suffix>", … */
char *mg_output_name_make_unique (const char *path);

G_END_DECLS
