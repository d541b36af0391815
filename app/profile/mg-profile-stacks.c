/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A loaded profile's call stacks, decoded on first use: a 1024-rank
 * profile stores them in 22 MB that unpack to 254 MB, which opening it
 * (the window, the command line's summary) never needs. Opening checks
 * what is cheap (mg_stack_packed_check); the first reader that needs the
 * stacks inflates every process's windows and counts, once. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-profile-internal.h"
#include "mg-stack-pack.h"
#include "mg-stack-set.h"
#include "format/mg-record-stacks.h"

/* Under stacks_lock: decodes the pending member into stacks, or keeps
 * them empty and says why. */
static void
decode_pending (MgProfile *self)
{
  g_autoptr (GVariant) packed = g_steal_pointer (&self->stacks_pending);
  GVariant *stacks = mg_stack_unpack (packed);

  self->stacks_decodes++;
  if (stacks == NULL)
    {
      g_set_error (&self->stacks_error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT,
                   _("The profile “%s” is damaged (call stacks): its call stacks cannot be "
                     "read, its metrics can."),
                   self->file_name != NULL ? self->file_name : "");
      return;
    }
  g_clear_pointer (&self->stacks, g_variant_unref);
  self->stacks = stacks;
}

GVariant *
mg_profile_peek_stacks (MgProfile *self)
{
  g_mutex_lock (&self->stacks_lock);
  if (self->stacks_pending != NULL)
    decode_pending (self);
  g_mutex_unlock (&self->stacks_lock);
  return self->stacks;
}

GVariant *
mg_profile_dup_process_stacks (MgProfile *self, int process)
{
  g_autoptr (GVariant) pending = NULL;

  g_mutex_lock (&self->stacks_lock);
  if (self->stacks_pending != NULL && process >= 0)
    pending = g_variant_ref (self->stacks_pending);
  g_mutex_unlock (&self->stacks_lock);
  if (pending != NULL)
    {
      GVariant *one = mg_stack_unpack_process (pending, process);

      if (one != NULL)
        return one;
      /* Damaged: decoding them all says so, and they read as none. */
    }
  return g_variant_get_child_value (mg_profile_peek_stacks (self), 1);
}

gboolean
mg_profile_read_stacks (MgProfile *profile, GError **error)
{
  gboolean ok;

  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  mg_profile_peek_stacks (profile);
  g_mutex_lock (&profile->stacks_lock);
  ok = profile->stacks_error == NULL;
  if (!ok)
    g_propagate_error (error, g_error_copy (profile->stacks_error));
  g_mutex_unlock (&profile->stacks_lock);
  return ok;
}

/* The member the modules and the processes' counts are read from without
 * decoding: the packed one read from the file (the same (ayay) modules
 * first, the processes with the same (ittu…) heads after the table), else
 * the stacks. */
static GVariant *
undecoded_member (MgProfile *self, guint *procs_child)
{
  if (procs_child != NULL)
    *procs_child = self->stacks_packed != NULL ? 2 : 1;
  return self->stacks_packed != NULL ? self->stacks_packed : self->stacks;
}

GVariant *
mg_profile_dup_stack_modules (MgProfile *self)
{
  return g_variant_get_child_value (undecoded_member (self, NULL), 0);
}

void
mg_profile_get_stack_counts (MgProfile *profile, MgStackCounts *counts)
{
  g_return_if_fail (MG_IS_PROFILE (profile));
  guint procs_child;
  GVariant *member = undecoded_member (profile, &procs_child);
  g_autoptr (GVariant) procs = g_variant_get_child_value (member, procs_child);

  *counts = (MgStackCounts) { 0 };
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (procs, i);
      guint64 taken, lost;
      guint32 state;
      gint32 index;

      g_variant_get_child (proc, 0, "i", &index);
      g_variant_get_child (proc, 1, "t", &taken);
      g_variant_get_child (proc, 2, "t", &lost);
      g_variant_get_child (proc, 3, "u", &state);
      counts->taken += taken;
      counts->lost += lost;
      if (index >= 0 && (guint) index < mg_profile_get_n_processes (profile))
        {
          MgProcessEnd end = mg_profile_get_process (profile, (guint) index)->end;

          if (end == MG_PROCESS_END_UNKNOWN || end == MG_PROCESS_END_SIGNALLED)
            counts->lost_unended += lost;
        }
      counts->n_processes++;
      if (state == MG_RECORD_STACKS_STEPPED_ASIDE)
        counts->n_stepped_aside++;
      else if (state == MG_RECORD_STACKS_FAILED)
        counts->n_failed++;
    }
}

guint
mg_profile_get_n_stack_modules (MgProfile *profile)
{
  g_return_val_if_fail (MG_IS_PROFILE (profile), 0);
  g_autoptr (GVariant) modules = mg_profile_dup_stack_modules (profile);
  return (guint) g_variant_n_children (modules);
}

void
mg_profile_get_stack_module (MgProfile *profile, guint module, MgStackModule *out)
{
  g_return_if_fail (MG_IS_PROFILE (profile));
  g_autoptr (GVariant) modules = mg_profile_dup_stack_modules (profile);
  g_return_if_fail (module < g_variant_n_children (modules));
  g_autoptr (GVariant) m = g_variant_get_child_value (modules, module);
  g_autoptr (GVariant) path = g_variant_get_child_value (m, 0);
  g_autoptr (GVariant) id = g_variant_get_child_value (m, 1);

  /* Both point into the member, which the profile keeps. */
  out->path = g_variant_get_bytestring (path);
  out->build_id = g_variant_get_fixed_array (id, &out->build_id_len, 1);
  if (out->build_id_len == 0)
    out->build_id = NULL;
}
