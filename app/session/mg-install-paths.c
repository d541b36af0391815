/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Build-tree or installed: decided once from /proc/self/exe. */
#include "mg-config.h"

#include "mg-install-paths.h"

#include <gio/gio.h>
#include <string.h>

#include "mg-scorep-probe-format.h"

#define MG_SAMPLER_NAME "libmetrograph-sampler.so"
#define MG_GUI_MODULE_NAME "libmetrograph-gui.so"

/* Path names compared as strings: a GFile would start GIO's VFS and scan
 * its modules, about 0.2 ms of every --profile run. */
static gboolean
exe_in_build_tree (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *root = g_canonicalize_filename (MG_BUILD_ROOT, "/");
  gsize n = strlen (root);

  return exe != NULL && strncmp (exe, root, n) == 0
         && (exe[n] == G_DIR_SEPARATOR || (n > 0 && root[n - 1] == G_DIR_SEPARATOR));
}

gboolean
mg_install_paths_in_build_tree (void)
{
  static gsize decided;
  static gboolean in_tree;

  if (g_once_init_enter (&decided))
    {
      in_tree = exe_in_build_tree ();
      g_once_init_leave (&decided, 1);
    }
  return in_tree;
}

char *
mg_install_paths_get_sampler (void)
{
  if (mg_install_paths_in_build_tree ())
    return g_build_filename (MG_BUILD_ROOT, "sampler", MG_SAMPLER_NAME, NULL);
  return g_build_filename (MG_PKGLIBDIR, MG_SAMPLER_NAME, NULL);
}

char *
mg_install_paths_get_metrograph (void)
{
  if (mg_install_paths_in_build_tree ())
    return g_build_filename (MG_BUILD_ROOT, "app", "cli", "metrograph", NULL);
  return g_build_filename (MG_BINDIR, "metrograph", NULL);
}

char *
mg_install_paths_get_gui_module (void)
{
  if (mg_install_paths_in_build_tree ())
    return g_build_filename (MG_BUILD_ROOT, "app", "gui", MG_GUI_MODULE_NAME, NULL);
  return g_build_filename (MG_PKGLIBDIR, MG_GUI_MODULE_NAME, NULL);
}

char *
mg_install_paths_get_metrics_dir (void)
{
  if (mg_install_paths_in_build_tree ())
    return g_build_filename (MG_BUILD_ROOT, "plugins", NULL);
  return g_strdup (MG_METRICS_DIR);
}

char *
mg_install_paths_get_scorep_probe (void)
{
  if (mg_install_paths_in_build_tree ())
    return g_build_filename (MG_BUILD_ROOT, "scorep", MG_SCOREP_PROBE_NAME, NULL);
  return g_build_filename (MG_PKGLIBDIR, MG_SCOREP_PROBE_NAME, NULL);
}

char *
mg_install_paths_get_reports_dir (void)
{
  if (mg_install_paths_in_build_tree ())
    return g_build_filename (MG_SOURCE_ROOT, "data", "reports", NULL);
  return g_build_filename (MG_PKGDATADIR, "reports", NULL);
}
