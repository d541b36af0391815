/* Names of profile files: MAP's default pattern, and suffixes that keep an
 * existing file from being overwritten. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_PROFILE_SUFFIX ".mgprof"

/* "<basename of program>_<N>p_<M>n_<YYYY-MM-DD_HH-MM>.mgprof", in local time. */
char *mg_output_name_default (const char *program, guint n_processes, guint n_nodes,
                              GDateTime *start);
/* path itself when nothing exists there, else the first free
 * "<stem>-1<suffix>", "<stem>-2<suffix>", … */
char *mg_output_name_make_unique (const char *path);

G_END_DECLS
