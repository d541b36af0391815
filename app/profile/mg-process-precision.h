/* SPDX-License-Identifier: GPL-3.0-or-later */
/* At which precision a profile stores each process's own series (the
 * aggregates across processes are always exact): the one home of the
 * choice's keywords and of its default. docs/profile-format.md ("Process
 * blocks") states what single precision keeps. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MG_PROCESS_PRECISION_EXACT,    /* every double as it is (lossless) */
  MG_PROCESS_PRECISION_SINGLE,   /* IEEE float32, rounded to nearest, where that keeps the bound */
} MgProcessPrecision;

#define MG_PROCESS_PRECISION_DEFAULT MG_PROCESS_PRECISION_EXACT
#define MG_PROCESS_PRECISION_LAST MG_PROCESS_PRECISION_SINGLE

/* "exact", "single". */
const char *mg_process_precision_to_keyword (MgProcessPrecision precision);
/* FALSE when @keyword is none of them. */
gboolean mg_process_precision_from_keyword (const char *keyword, MgProcessPrecision *precision);
/* The keywords as "exact or single", for messages. */
char *mg_process_precision_list_keywords (void);

G_END_DECLS
