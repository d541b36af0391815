/* SPDX-License-Identifier: GPL-3.0-or-later */
/* GL or cairo (mg-renderer-choice.c): the decision from the facts, the facts from
 * crafted devices and display names, and GTK started the viewer's way
 * under Xvfb, in subprocesses (GTK starts once per process). */
#include "mg-config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "gui/mg-renderer-choice.h"

static void
test_choose (void)
{
  const MgGlPath gpu = { .gpu = TRUE, .remote = FALSE, .direct = TRUE };
  const MgGlPath none = { .gpu = FALSE, .direct = TRUE };
  const MgGlPath remote = { .gpu = TRUE, .remote = TRUE, .direct = TRUE };
  const MgGlPath xvfb = { .gpu = TRUE, .remote = FALSE, .direct = FALSE };
  const char *why = NULL;

  g_assert_null (mg_renderer_choose (NULL, &gpu, &why));
  g_assert_nonnull (strstr (why, "GPU"));
  g_assert_cmpstr (mg_renderer_choose (NULL, &none, &why), ==, "cairo");
  g_assert_nonnull (strstr (why, "no GPU device"));
  g_assert_cmpstr (mg_renderer_choose ("", &remote, &why), ==, "cairo");
  g_assert_nonnull (strstr (why, "remote"));
  g_assert_cmpstr (mg_renderer_choose (NULL, &xvfb, NULL), ==, "cairo");
  /* The user's choice stands, whatever the facts. */
  g_assert_null (mg_renderer_choose ("gl", &none, &why));
  g_assert_cmpstr (why, ==, "GSK_RENDERER is set");
  g_assert_null (mg_renderer_choose ("cairo", NULL, NULL));
}

static void
test_remote_display (void)
{
  const char *local[] = { ":0", ":1.0", "unix:0", "unix/host:0", "local/host:0",
                          "/tmp/launch-x/org.xquartz:0" };
  const char *remote[] = { "localhost:10.0", "node17.cluster:0", "tcp/host:0", "10.0.0.5:1",
                           "host::0" };

  for (guint i = 0; i < G_N_ELEMENTS (local); i++)
    g_assert_false (mg_renderer_display_is_remote (local[i]));
  for (guint i = 0; i < G_N_ELEMENTS (remote); i++)
    g_assert_true (mg_renderer_display_is_remote (remote[i]));
  g_assert_false (mg_renderer_display_is_remote (NULL));
  g_assert_false (mg_renderer_display_is_remote ("nonsense"));
}

static void
touch (const char *dir, const char *name, int mode)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static void
test_gpu_devices (void)
{
  g_autofree char *dev = g_dir_make_tmp ("mg-dev-XXXXXX", NULL);
  g_autofree char *dri = g_build_filename (dev, "dri", NULL);
  g_autofree char *card = g_build_filename (dri, "card0", NULL);
  g_autofree char *node = g_build_filename (dri, "renderD128", NULL);
  g_autofree char *nvidia = g_build_filename (dev, "nvidiactl", NULL);

  g_assert_false (mg_renderer_has_gpu (dev));
  g_assert_cmpint (g_mkdir (dri, 0755), ==, 0);
  /* A display controller alone (a VM's card0) renders nothing. */
  touch (dri, "card0", 0666);
  g_assert_false (mg_renderer_has_gpu (dev));
  touch (dri, "renderD128", 0666);
  g_assert_true (mg_renderer_has_gpu (dev));
  /* A render node we may not open is no use (root may open anything). */
  g_assert_cmpint (g_chmod (node, 0), ==, 0);
  if (geteuid () != 0)
    g_assert_false (mg_renderer_has_gpu (dev));
  g_assert_cmpint (g_unlink (node), ==, 0);
  touch (dev, "nvidiactl", 0666);
  g_assert_true (mg_renderer_has_gpu (dev));

  g_unlink (nvidia);
  g_unlink (card);
  g_rmdir (dri);
  g_rmdir (dev);
}

static void
test_backend (void)
{
  const struct {
    const char *env[4];
    const char *backend;
  } cases[] = {
    { { "DISPLAY=:0" }, "x11" },
    { { "WAYLAND_DISPLAY=wayland-0", "DISPLAY=:0" }, "wayland" },
    { { "GDK_BACKEND=x11", "WAYLAND_DISPLAY=wayland-0", "DISPLAY=:0" }, "x11" },
    { { "GDK_BACKEND=wayland,x11", "DISPLAY=:0" }, "wayland" },
    { { "GDK_BACKEND=*", "DISPLAY=:1" }, "x11" },
    { { "GDK_BACKEND=broadway", "DISPLAY=:0" }, NULL },
    { { "HOME=/root" }, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpstr (mg_renderer_guess_backend (cases[i].env), ==, cases[i].backend);
}

static void
test_gdk_debug (void)
{
  g_autofree char *empty = mg_renderer_gdk_debug_without_gl (NULL);
  g_autofree char *blank = mg_renderer_gdk_debug_without_gl ("");
  g_autofree char *misc = mg_renderer_gdk_debug_without_gl ("misc:events");

  g_assert_cmpstr (empty, ==, "gl-disable");
  g_assert_cmpstr (blank, ==, "gl-disable");
  g_assert_cmpstr (misc, ==, "misc:events:gl-disable");
  g_assert_null (mg_renderer_gdk_debug_without_gl ("gl-disable"));
  g_assert_null (mg_renderer_gdk_debug_without_gl ("misc,gl-disable"));
  g_assert_null (mg_renderer_gdk_debug_without_gl ("all"));
}

/* What a program the viewer launches would get: the environment as a
 * child sees it. */
static gboolean
child_has (const char *name)
{
  const char *argv[] = { "/usr/bin/env", NULL };
  g_autofree char *out = NULL;
  g_autofree char *needle = g_strconcat ("\n", name, "=", NULL);
  g_autofree char *padded = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               NULL, NULL, &error));
  g_assert_no_error (error);
  padded = g_strconcat ("\n", out, NULL);
  return strstr (padded, needle) != NULL;
}

static GskRenderer *
window_renderer (void)
{
  GtkWidget *window = gtk_window_new ();

  gtk_widget_realize (window);
  return gtk_native_get_renderer (GTK_NATIVE (window));
}

/* In the subprocess: GTK started the viewer's way; which renderer the
 * facts call for decides what must hold. */
static void
init_as_viewer (void)
{
  g_auto (GStrv) envp = g_get_environ ();
  const char *user_debug = g_getenv ("GDK_DEBUG");
  g_autofree char *before = g_strdup (user_debug);
  const char *renderer = NULL, *why = NULL, *expected;
  MgGlPath path;
  g_autoptr (GError) error = NULL;

  mg_renderer_probe ((const char *const *) envp, &path);
  expected = mg_renderer_choose (g_getenv ("GSK_RENDERER"), &path, NULL);
  g_assert_true (mg_renderer_init_gtk (&renderer, &why));
  g_assert_cmpstr (renderer, ==, expected);
  g_assert_nonnull (why);
  /* Nothing left behind for launched programs. */
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, before);
  g_assert_true (child_has ("GDK_DEBUG") == (before != NULL));
  g_assert_true (child_has ("GSK_RENDERER") == (g_getenv ("GSK_RENDERER") != NULL));
  if (expected != NULL)
    {
      /* GL was not even set up, and windows draw with cairo. */
      g_assert_false (gdk_display_prepare_gl (gdk_display_get_default (), &error));
      g_assert_true (GSK_IS_CAIRO_RENDERER (window_renderer ()));
    }
  else if (g_strcmp0 (g_getenv ("GSK_RENDERER"), "gl") == 0)
    g_assert_cmpstr (G_OBJECT_TYPE_NAME (window_renderer ()), ==, "GskGLRenderer");
}

static void
test_init (gconstpointer data)
{
  const char *variant = data;

  if (g_test_subprocess ())
    {
      if (g_str_equal (variant, "user-debug"))
        g_setenv ("GDK_DEBUG", "nograbs", TRUE);
      else if (g_str_equal (variant, "user-gl"))
        g_setenv ("GSK_RENDERER", "gl", TRUE);
      init_as_viewer ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  /* From a clean slate whatever the caller set (the subprocesses inherit
   * it and set what their variant needs). */
  g_unsetenv ("GSK_RENDERER");
  g_unsetenv ("GDK_DEBUG");
  /* No accessibility bus under xvfb-run (GTK would warn, fatally here). */
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/renderer/choose", test_choose);
  g_test_add_func ("/renderer/remote-display", test_remote_display);
  g_test_add_func ("/renderer/gpu-devices", test_gpu_devices);
  g_test_add_func ("/renderer/backend", test_backend);
  g_test_add_func ("/renderer/gdk-debug", test_gdk_debug);
  g_test_add_data_func ("/renderer/init/clean", "clean", test_init);
  g_test_add_data_func ("/renderer/init/user-debug", "user-debug", test_init);
  g_test_add_data_func ("/renderer/init/user-gl", "user-gl", test_init);
  return g_test_run ();
}
