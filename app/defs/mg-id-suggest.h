/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Matching typed metric and group ids against the known ones: without
 * regard to case, and "did you mean …?" for the closest. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Up to @max of @candidates (const char*) close to @typed, best first:
 * edit distance to the whole id, to a prefix of it ("cpu_tme" →
 * "cpu_time_percentage") or to its last dotted part. */
GStrv mg_id_suggest (const char *typed, GPtrArray *candidates, guint max);
/* The distinct @candidates equal to @typed without regard to ASCII case,
 * in their order; @typed itself alone when it is one of them exactly. */
GStrv mg_id_match (const char *typed, GPtrArray *candidates);
/* "'a'", "'a' or 'b'", "'a', 'b' or 'c'" */
char *mg_id_suggest_format (const char *const *ids);

G_END_DECLS
