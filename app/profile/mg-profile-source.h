/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile file read in place (mg-profile-source.c): opening reads all but
 * the processes' own series, which are read when first asked for. Private to
 * app/profile. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

typedef struct _MgProfileSource MgProfileSource;

/* Reads the payload of the open profile file fd, whose header (checked) says
 * it is payload_len bytes with this CRC, into memory but for each process's
 * bulk (member series_member of the payload is an array of one tuple per
 * process; its children hole_first to hole_last are the bulk: times and
 * values, or a format 3 block): those pages are not touched. The CRC of the whole payload is
 * checked in the same pass, and every process's block's is kept for the
 * reads to come; with holes_checked (the holes are blocks that carry their
 * own CRC) the holes are not read at all and crc is of the rest. Returns the payload (8-byte aligned) and the source that
 * reads the rest, which keeps fd (NULL when nothing is left to read). On
 * failure sets error, or *changed when the file changed while it was read
 * (the caller reads it again another way). */
GBytes *mg_profile_source_open (int fd, guint64 payload_len, guint32 crc,
                                const GVariantType *payload_type, guint series_member,
                                guint hole_first, guint hole_last, gboolean holes_checked,
                                const char *display, MgProfileSource **source,
                                gboolean *changed, GError **error);

/* The CRC of the payload without its holes, as holes_checked files store
 * it (format 3: each process's block carries its own). */
guint32 mg_profile_source_gaps_crc (const guchar *payload, gsize len,
                                    const GVariantType *payload_type, guint series_member,
                                    guint hole_first, guint hole_last);

/* Where to set n to 0 when a process's series cannot be read: the profile's
 * [process × n_metrics] series. */
void mg_profile_source_attach (MgProfileSource *self, MgProcessSeries *series, guint n_metrics);

/* Reads the process's times and values into their place unless done:
 * TRUE when they are there. FALSE, with error naming the file and the
 * process (pid), when the file no longer holds them (changed on disk since
 * it was opened: the check against the block's CRC fails) or cannot be read;
 * the process's series then have n = 0. Thread-safe. */
gboolean mg_profile_source_read (MgProfileSource *self, guint process, int pid, GError **error);

void mg_profile_source_free (MgProfileSource *self);

G_END_DECLS
