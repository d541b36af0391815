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
/* path itself when nothing exists there, else the first free
 * "<stem>-1<suffix>", "<stem>-2<suffix>", … */
char *mg_output_name_make_unique (const char *path);

G_END_DECLS
