/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How GTK draws the viewer: with GL or with cairo (see mg-renderer-choice.h). */
#include "mg-config.h"

#include "mg-renderer-choice.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#if defined(MG_HAVE_X11)
#include <X11/Xlib.h>
#endif

#define GL_DISABLE "gl-disable"

const char *
mg_renderer_choose (const char *user_choice, const MgGlPath *path, const char **why)
{
  const char *reason;
  gboolean user = user_choice != NULL && *user_choice != '\0';

  if (user)
    reason = "GSK_RENDERER is set";
  else if (!path->gpu)
    reason = "no GPU device (/dev/dri/renderD*): GL would be software";
  else if (path->remote)
    reason = "the display is remote: GL would be indirect or software";
  else if (!path->direct)
    reason = "the display server has no direct rendering (DRI): GL would be software";
  else
    reason = "a GPU and direct rendering";
  if (why != NULL)
    *why = reason;
  if (user || (path->gpu && !path->remote && path->direct))
    return NULL;
  return "cairo";
}

/* A device node we could hand to a GL driver: it exists and we may read and
 * write it (a render node of a group we are not in is no use to Mesa). */
static gboolean
usable_device (const char *path)
{
  return g_access (path, R_OK | W_OK) == 0;
}

gboolean
mg_renderer_has_gpu (const char *dev_dir)
{
  g_autofree char *dri = g_build_filename (dev_dir, "dri", NULL);
  g_autofree char *nvidia = g_build_filename (dev_dir, "nvidiactl", NULL);
  g_autoptr (GDir) dir = g_dir_open (dri, 0, NULL);
  const char *name;

  /* NVIDIA's own driver needs no DRM render node for GL. */
  if (usable_device (nvidia))
    return TRUE;
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;

      if (!g_str_has_prefix (name, "renderD"))
        continue;
      path = g_build_filename (dri, name, NULL);
      if (usable_device (path))
        return TRUE;
    }
  return FALSE;
}

gboolean
mg_renderer_display_is_remote (const char *display_name)
{
  const char *colon, *slash;
  g_autofree char *host = NULL;

  /* [protocol/][host]:display[.screen]; a path (launchd) is local. */
  if (display_name == NULL || display_name[0] == '/')
    return FALSE;
  colon = strrchr (display_name, ':');
  if (colon == NULL)
    return FALSE;
  slash = memchr (display_name, '/', colon - display_name);
  if (slash != NULL)
    {
      /* "unix/host:0" and "local/host:0" are local sockets. */
      if (g_str_has_prefix (display_name, "unix/") || g_str_has_prefix (display_name, "local/"))
        return FALSE;
      display_name = slash + 1;
    }
  /* "host::0" (DECnet) keeps a colon in the host: remote too. */
  host = g_strndup (display_name, colon - display_name);
  return *host != '\0' && g_strcmp0 (host, "unix") != 0;
}

const char *
mg_renderer_guess_backend (const char *const *envp)
{
  const char *backends = g_environ_getenv ((char **) envp, "GDK_BACKEND");
  const char *wayland = g_environ_getenv ((char **) envp, "WAYLAND_DISPLAY");
  const char *x11 = g_environ_getenv ((char **) envp, "DISPLAY");

  /* GDK_BACKEND: a list tried in order; "*" for GDK's own order, which
   * tries Wayland before X11. Only the first entry is judged. */
  if (backends != NULL && *backends != '\0' && *backends != '*')
    {
      if (g_str_has_prefix (backends, "wayland"))
        return "wayland";
      if (g_str_has_prefix (backends, "x11"))
        return "x11";
      return NULL;
    }
  if (wayland != NULL && *wayland != '\0')
    return "wayland";
  if (x11 != NULL && *x11 != '\0')
    return "x11";
  return NULL;
}

/* Whether the X server lets a local GL client render on the GPU and share
 * the buffers: DRI3 (Mesa), DRI2 (older Mesa), or NVIDIA's GLX. Xvfb and VNC
 * servers have none of them, so GL there is llvmpipe whatever the GPU. On a
 * short connection of our own: GTK has not opened the display yet. Without
 * Xlib at build time: assumed. */
static gboolean
x11_direct (const char *display_name)
{
#if defined(MG_HAVE_X11)
  static const char *const extensions[] = { "DRI3", "DRI2", "NV-GLX" };
  Display *display = XOpenDisplay (display_name);
  gboolean direct = FALSE;

  if (display == NULL)
    return TRUE; /* GTK will say what is wrong with the display */
  for (guint i = 0; i < G_N_ELEMENTS (extensions) && !direct; i++)
    {
      int opcode, event, error;

      direct = XQueryExtension (display, extensions[i], &opcode, &event, &error);
    }
  XCloseDisplay (display);
  return direct;
#else
  return TRUE;
#endif
}

void
mg_renderer_probe (const char *const *envp, MgGlPath *path)
{
  const char *backend = mg_renderer_guess_backend (envp);

  path->gpu = mg_renderer_has_gpu ("/dev");
  path->remote = FALSE;
  path->direct = TRUE;
  if (backend == NULL)
    {
      /* Broadway and the like choose their own renderer. */
      path->gpu = TRUE;
      return;
    }
  if (g_str_equal (backend, "x11"))
    {
      const char *display = g_environ_getenv ((char **) envp, "DISPLAY");

      path->remote = mg_renderer_display_is_remote (display);
      /* No GPU or a remote display decide already: no need to ask. */
      if (path->gpu && !path->remote)
        path->direct = x11_direct (display);
    }
}

char *
mg_renderer_gdk_debug_without_gl (const char *gdk_debug)
{
  g_auto (GStrv) flags = NULL;

  if (gdk_debug == NULL || *gdk_debug == '\0')
    return g_strdup (GL_DISABLE);
  flags = g_strsplit_set (gdk_debug, ",:; ", -1);
  for (guint i = 0; flags[i] != NULL; i++)
    if (g_str_equal (flags[i], GL_DISABLE) || g_str_equal (flags[i], "all"))
      return NULL;
  return g_strconcat (gdk_debug, ":", GL_DISABLE, NULL);
}

gboolean
mg_renderer_init_gtk (const char **renderer, const char **why)
{
  g_auto (GStrv) envp = g_get_environ ();
  const char *old_debug = g_environ_getenv (envp, "GDK_DEBUG");
  const char *user = g_environ_getenv (envp, "GSK_RENDERER");
  g_autofree char *debug = NULL;
  const char *choice;
  MgGlPath path;
  gboolean ok;

  if (user != NULL && *user != '\0')
    choice = mg_renderer_choose (user, NULL, why);
  else
    {
      mg_renderer_probe ((const char *const *) envp, &path);
      choice = mg_renderer_choose (NULL, &path, why);
    }
  if (renderer != NULL)
    *renderer = choice;
  if (choice == NULL)
    return gtk_init_check ();

  /* GDK reads GDK_DEBUG once, in gtk_init: set for that time only, then
   * put back as it was, so launched programs do not inherit it. (A thread
   * GTK started meanwhile reading the environment at that very instant
   * could miss a variable; glibc frees nothing unsetenv removes, so it
   * cannot read freed memory.) */
  debug = mg_renderer_gdk_debug_without_gl (old_debug);
  if (debug != NULL)
    g_setenv ("GDK_DEBUG", debug, TRUE);
  ok = gtk_init_check ();
  if (debug != NULL && old_debug != NULL)
    g_setenv ("GDK_DEBUG", old_debug, TRUE);
  else if (debug != NULL)
    g_unsetenv ("GDK_DEBUG");
  /* GTK asks the display for a renderer before GSK_RENDERER and its own
   * defaults (its inspector names one this way); named here, GTK does not
   * even try GL first. A GTK without this ignores the name. */
  if (ok)
    g_object_set_data_full (G_OBJECT (gdk_display_get_default ()), "gsk-renderer",
                            g_strdup (choice), g_free);
  return ok;
}
