/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --export=FILE.pb.gz: a profile's call stacks in pprof's profile.proto,
 * gzip-compressed, as `go tool pprof` and other pprof readers take it
 * (docs/export.md). Written with our own encoder (mg-protobuf.h). */
#pragma once

#include <glib.h>

#include "mg-profile.h"
#include "mg-stack-namer.h"

G_BEGIN_DECLS

/* Writes the stacks of the processes flagged in processes (one flag per
 * process; NULL: all) sampled in windows overlapping
 * (start_s, end_s] to path, replaced atomically, frames named through
 * namer (NULL: module + offset), one sample value: the sample count. */
gboolean mg_export_pprof (MgProfile *profile, const char *path, const gboolean *processes,
                           double start_s,
                          double end_s, const MgStackNamer *namer, GError **error);

G_END_DECLS
