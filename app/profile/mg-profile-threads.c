/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile's threads member: ids and names of the sampled threads. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-profile-internal.h"
#include "mg-profile-layout.h"
#include "mg-profile-threads.h"

GVariant *
mg_profile_threads_empty (void)
{
  return g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("(iuiay)"), NULL, 0));
}

/* A name: bytes ending with their only NUL. */
static gboolean
is_name (GVariant *name)
{
  gsize len;
  const char *bytes = g_variant_get_fixed_array (name, &len, 1);
  return len > 0 && memchr (bytes, '\0', len) == bytes + len - 1;
}

gboolean
mg_profile_set_threads (MgProfile *self, GVariant *threads)
{
  gsize n = g_variant_n_children (threads);
  for (gsize i = 0; i < n; i++)
    {
      gint32 process;
      g_autoptr (GVariant) name = NULL;
      g_variant_get_child (threads, i, "(iui@ay)", &process, NULL, NULL, &name);
      if (process < 0 || (guint) process >= self->processes->len || !is_name (name))
        return FALSE;
    }
  g_clear_pointer (&self->threads, g_variant_unref);
  self->threads = g_variant_ref (threads);
  return TRUE;
}

const char *
mg_profile_get_thread_name (MgProfile *self, guint process, guint ordinal, gint32 *tid)
{
  gsize n = g_variant_n_children (self->threads);
  if (tid)
    *tid = 0;
  /* The last entry wins: a process that exec'd lists each image's. */
  for (gsize i = n; i-- > 0;)
    {
      gint32 p, id;
      guint32 o;
      const char *name;
      g_variant_get_child (self->threads, i, "(iui^&ay)", &p, &o, &id, &name);
      if ((guint) p == process && o == ordinal)
        {
          if (tid)
            *tid = id;
          return name;
        }
    }
  return NULL;
}

char *
mg_profile_dup_thread_display_name (MgProfile *self, int process, guint ordinal)
{
  const char *found = NULL;
  if (process >= 0)
    found = mg_profile_get_thread_name (self, (guint) process, ordinal, NULL);
  else
    /* One pass over every entry, whatever the number of processes. */
    for (gsize i = 0; i < g_variant_n_children (self->threads); i++)
      {
        guint32 o;
        const char *name;
        g_variant_get_child (self->threads, i, "(iui^&ay)", NULL, &o, NULL, &name);
        if (o != ordinal)
          continue;
        if (found != NULL && strcmp (found, name) != 0)
          return NULL;
        found = name;
      }
  if (found == NULL || found[0] == '\0')
    return NULL;
  return g_utf8_make_valid (found, -1);
}

guint
mg_profile_get_n_thread_names (MgProfile *self)
{
  return (guint) g_variant_n_children (self->threads);
}

char *
mg_profile_dup_thread_label (MgProfile *profile, int process, guint ordinal)
{
  g_autofree char *name = profile ? mg_profile_dup_thread_display_name (profile, process, ordinal)
                                  : NULL;
  if (name != NULL && ordinal == 0)
    /* Translators: the main thread in a list of threads, after its name as the
     * program set it (e.g. "worker (main thread)") */
    return g_strdup_printf (_("%s (main thread)"), name);
  if (name != NULL)
    /* Translators: a thread in a list of threads: its name as the program set it,
     * and its number in the order it was first seen (e.g. "worker-3 (thread 2)") */
    return g_strdup_printf (_("%s (thread %u)"), name, ordinal);
  if (ordinal == 0)
    return g_strdup (_("Main Thread"));
  /* Translators: a thread of the process other than its main thread, by its number in
   * the order it was first seen */
  return g_strdup_printf (_("Thread %u"), ordinal);
}
