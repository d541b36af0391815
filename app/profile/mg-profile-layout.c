/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The payload's type by format version, and its checksum. */
#include "mg-config.h"

#include "mg-crc32.h"
#include "mg-profile-layout.h"
#include "mg-profile-source.h"

/* The members, in order, of each format's payload. */
#define MEMBERS(run, process, pseries) \
  run "a" MG_PAYLOAD_METRIC_TYPE "a" MG_PAYLOAD_GROUP_TYPE "adadadaia(dddddu)" "a" process \
  "a" pseries "a" MG_PAYLOAD_PLUGIN_ERROR_TYPE "a" MG_PAYLOAD_METRIC_ERROR_TYPE \
  "a" MG_PAYLOAD_EVENT_TYPE
#define MEMBERS_V4(pseries) MEMBERS (MG_PAYLOAD_RUN_TYPE_V4, MG_PAYLOAD_PROCESS_TYPE_V4, pseries)
#define PAYLOAD_TYPE_V1 "(" MEMBERS_V4 (MG_PAYLOAD_PSERIES_TYPE_V2) ")"
#define PAYLOAD_TYPE_V2 "(" MEMBERS_V4 (MG_PAYLOAD_PSERIES_TYPE_V2) MG_PAYLOAD_OUTPUT_TYPE_V4 ")"
#define PAYLOAD_TYPE_V3 "(" MEMBERS_V4 (MG_PAYLOAD_PSERIES_TYPE) MG_PAYLOAD_OUTPUT_TYPE_V4 ")"
#define PAYLOAD_TYPE_V4 \
  "(" MEMBERS_V4 (MG_PAYLOAD_PSERIES_TYPE) MG_PAYLOAD_OUTPUT_TYPE_V4 MG_PAYLOAD_PRECISION_TYPE ")"
#define PAYLOAD_TYPE_V5 \
  "(" MEMBERS (MG_PAYLOAD_RUN_TYPE, MG_PAYLOAD_PROCESS_TYPE, MG_PAYLOAD_PSERIES_TYPE) \
  MG_PAYLOAD_OUTPUT_TYPE MG_PAYLOAD_PRECISION_TYPE ")"
#define PAYLOAD_TYPE_V6 \
  "(" MEMBERS (MG_PAYLOAD_RUN_TYPE, MG_PAYLOAD_PROCESS_TYPE, MG_PAYLOAD_PSERIES_TYPE) \
  MG_PAYLOAD_OUTPUT_TYPE MG_PAYLOAD_PRECISION_TYPE MG_PAYLOAD_STACKS_TYPE ")"
#define PAYLOAD_TYPE_V7 \
  "(" MEMBERS (MG_PAYLOAD_RUN_TYPE, MG_PAYLOAD_PROCESS_TYPE, MG_PAYLOAD_PSERIES_TYPE) \
  MG_PAYLOAD_OUTPUT_TYPE MG_PAYLOAD_PRECISION_TYPE MG_PAYLOAD_STACKS_PACKED_TYPE \
  MG_PAYLOAD_CODE_TYPE ")"
#define PAYLOAD_TYPE \
  "(" MEMBERS (MG_PAYLOAD_RUN_TYPE, MG_PAYLOAD_PROCESS_TYPE, MG_PAYLOAD_PSERIES_TYPE) \
  MG_PAYLOAD_OUTPUT_TYPE MG_PAYLOAD_PRECISION_TYPE MG_PAYLOAD_STACKS_PACKED_TYPE \
  MG_PAYLOAD_CODE_TYPE MG_PAYLOAD_THREADS_TYPE ")"

const GVariantType *
mg_profile_payload_type (guint32 version)
{
  switch (version)
    {
    case 1:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V1);
    case 2:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V2);
    case 3:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V3);
    case 4:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V4);
    case 5:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V5);
    case 6:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V6);
    case 7:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V7);
    default:
      return G_VARIANT_TYPE (PAYLOAD_TYPE);
    }
}

/* The members of a process's tuple the bulk is (read when asked for):
 * its times and values, or its block (format 3). */
guint
mg_profile_payload_hole_first (guint32 version)
{
  return version >= 3 ? 1 : 0;
}

guint32
mg_profile_payload_crc (const guchar *payload, gsize len, guint32 version)
{
  if (version < 3)
    return mg_crc32_update (0, payload, len);
  return mg_profile_source_gaps_crc (payload, len, mg_profile_payload_type (version),
                                     MG_PAYLOAD_SERIES_MEMBER,
                                     mg_profile_payload_hole_first (version), 1);
}
