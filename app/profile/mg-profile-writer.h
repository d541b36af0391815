/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile as the payload of its file (mg-profile-layout.h). GTK-free. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

/* The payload, floating; blocks: each process's block, as it is to be
 * stored. Arrays point into the profile's memory, which must outlive it. */
GVariant *mg_profile_to_payload (MgProfile *self, GBytes **blocks);

G_END_DECLS
