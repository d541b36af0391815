/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A small profile with every field set, shared by the profile tests. */
#pragma once

#include "profile/mg-profile-builder.h"

MgMetricDef *profile_fixture_metric (const char *id, MgDomain domain);
/* Two processes on two hosts, metrics "alpha" (time), "beta" (time, never
 * reported by process 1) and "gamma" (single value), one group, one of each
 * error and two events. */
MgProfile *profile_fixture_profile (void);

/* Asserts that two profiles hold the same data, field by field. */
void profile_fixture_assert_profiles_equal (MgProfile *a, MgProfile *b);
