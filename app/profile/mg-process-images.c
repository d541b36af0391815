/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The images of a process, from its start and exec events. */
#include "mg-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mg-display-text.h"
#include "mg-process-images.h"

gboolean
mg_profile_has_process_images (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), FALSE);
  for (guint i = 0; i < mg_profile_get_n_events (self); i++)
    {
      const MgProcessEvent *event = mg_profile_get_event (self, i);

      if (event->kind == MG_EVENT_START)
        return event->message != NULL;
    }
  return FALSE;
}

GPtrArray *
mg_profile_dup_process_images (MgProfile *self, guint process)
{
  GPtrArray *images = g_ptr_array_new_with_free_func (g_free);
  const MgProcessInfo *info;

  g_return_val_if_fail (MG_IS_PROFILE (self), images);
  g_return_val_if_fail (process < mg_profile_get_n_processes (self), images);
  for (guint i = 0; i < mg_profile_get_n_events (self); i++)
    {
      const MgProcessEvent *event = mg_profile_get_event (self, i);

      if (event->process == (int) process && event->message != NULL
          && (event->kind == MG_EVENT_START || event->kind == MG_EVENT_EXEC))
        g_ptr_array_add (images, g_strdup (event->message));
    }
  info = mg_profile_get_process (self, process);
  if (images->len == 0 && info->program != NULL)
    g_ptr_array_add (images, g_strdup (info->program));
  return images;
}

static char *
shown_basename (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  return mg_display_one_line (base);
}

/* first, last: the first and last image named, NULL: none. */
static char *
describe (const char *first_image, const char *last_image)
{
  g_autofree char *last = NULL;
  g_autofree char *first = NULL;

  if (last_image == NULL)
    return g_strdup ("?");
  last = shown_basename (last_image);
  first = shown_basename (first_image);
  if (strcmp (first, last) == 0)
    return g_steal_pointer (&last);
  /* Translators: the program a process became, then the one it started as, e.g.
   * "python3 (via env)" */
  return g_strdup_printf (_("%s (via %s)"), last, first);
}

char *
mg_profile_describe_process_program (MgProfile *self, guint process)
{
  g_autoptr(GPtrArray) images = mg_profile_dup_process_images (self, process);

  if (images->len == 0)
    return describe (NULL, NULL);
  return describe (g_ptr_array_index (images, 0), g_ptr_array_index (images, images->len - 1));
}

GPtrArray *
mg_profile_describe_process_programs (MgProfile *self)
{
  guint n = mg_profile_get_n_processes (self);
  g_autofree const char **first = g_new0 (const char *, MAX (n, 1));
  g_autofree const char **last = g_new0 (const char *, MAX (n, 1));
  GPtrArray *names = g_ptr_array_new_full (n, g_free);

  for (guint i = 0; i < mg_profile_get_n_events (self); i++)
    {
      const MgProcessEvent *event = mg_profile_get_event (self, i);

      if (event->process < 0 || (guint) event->process >= n || event->message == NULL
          || (event->kind != MG_EVENT_START && event->kind != MG_EVENT_EXEC))
        continue;
      if (first[event->process] == NULL)
        first[event->process] = event->message;
      last[event->process] = event->message;
    }
  for (guint p = 0; p < n; p++)
    {
      const char *program = mg_profile_get_process (self, p)->program;

      g_ptr_array_add (names, last[p] != NULL ? describe (first[p], last[p])
                                              : describe (program, program));
    }
  return names;
}
