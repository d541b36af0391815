/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile from the payload of its file (mg-profile-layout.h), checked
 * member by member. GTK-free. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

/* The payload (already checked against its CRC) of a file of that format
 * version into a profile that points into it; errors name the file as
 * name. */
MgProfile *mg_profile_parse_payload (GBytes *payload_bytes, guint32 version, const char *name,
                                     GError **error);
/* Sets MG_PROFILE_ERROR_CORRUPT naming what is damaged; returns FALSE. */
gboolean mg_profile_corrupt (GError **error, const char *name, const char *what);

G_END_DECLS
