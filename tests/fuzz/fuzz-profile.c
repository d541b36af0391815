/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profiles (app/profile/mg-profile-load.c, mg-profile-reader.c). The
 * input is the payload: the harness writes the header with the right
 * length and checksum, so that every input reaches the structure (an
 * attacker recomputes the CRC in one line). A profile that loads is read
 * as the viewer would: every process's series, the run info, the errors
 * and events, the frames' names and the source text it carries. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "fuzz-input.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-profile-code.h"
#include "profile/mg-profile-header.h"
#include "profile/mg-profile.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-profile-layout.h"
#include "profile/mg-stack-set.h"

enum { HEADER_LEN = MG_PROFILE_HEADER_LEN };

/* Every frame named as the exports name it (the stored names first), and
 * every source text and omission the profile carries. */
static void
read_code (MgProfile *profile)
{
  MgStackCounts counts;
  mg_profile_get_stack_counts (profile, &counts);
  for (guint m = 0; m < mg_profile_get_n_stack_modules (profile); m++)
    {
      MgStackModule module;
      mg_profile_get_stack_module (profile, m, &module);
      g_assert (module.path != NULL);
    }
  /* Opened, the stacks are decoded here (a damaged member reads as none). */
  g_autoptr (GError) error = NULL;
  if (!mg_profile_read_stacks (profile, &error))
    g_assert (error != NULL);
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);

  for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint n, flags;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n, &flags);
      for (guint k = 0; k < n; k++)
        {
          g_autoptr (GPtrArray) names = mg_stack_frame_names (set, &frames[k], k > 0, NULL);
          g_assert (names->len > 0);
        }
    }
  for (guint i = 0; i < mg_profile_get_n_sources (profile); i++)
    {
      g_autoptr (GBytes) text =
        mg_profile_get_source_text (profile, mg_profile_get_source_path (profile, i));
      g_assert (text != NULL);
    }
  for (guint i = 0; i < mg_profile_get_n_source_omissions (profile); i++)
    {
      const char *reason = NULL;
      g_assert (mg_profile_get_source_omission (profile, i, &reason) != NULL && reason != NULL);
    }
}

static void
read_profile (MgProfile *profile)
{
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      g_autoptr (GError) error = NULL;

      mg_profile_read_process_series (profile, p, &error);
    }
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    g_assert (mg_profile_get_event (profile, i) != NULL);
  (void) mg_profile_get_run_info (profile)->duration_s;
  read_code (profile);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  guchar *file = g_malloc (HEADER_LEN + size);
  guint32 version = GUINT32_TO_LE (MG_PROFILE_VERSION), crc;
  guint64 len = GUINT64_TO_LE ((guint64) size);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = NULL;

  memcpy (file, MG_PROFILE_MAGIC, MG_PROFILE_MAGIC_LEN);
  memcpy (file + 8, &version, 4);
  memcpy (file + HEADER_LEN, data, size);
  crc = GUINT32_TO_LE (mg_profile_payload_crc (file + HEADER_LEN, size, MG_PROFILE_VERSION));
  memcpy (file + 12, &crc, 4);
  memcpy (file + 16, &len, 8);
  bytes = g_bytes_new_take (file, HEADER_LEN + size);
  profile = mg_profile_load_bytes (bytes, "fuzz.mgprof", &error);
  if (profile != NULL)
    read_profile (profile);
  else
    g_assert (error != NULL);
  return 0;
}
