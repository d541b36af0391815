/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mg_load_error_explain () on dlopen's real failures: the plugin's own
 * file missing, a library it needs missing (the plugin found, the
 * dependency named as what is missing), a symbol no library defines, and
 * a file that is there but cannot be opened (no descriptor left). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "format/mg-load-error.h"

static char *
explain (const char *library)
{
  char out[512];

  g_assert_null (dlopen (library, RTLD_NOW | RTLD_LOCAL));
  mg_load_error_explain (library, dlerror (), out, sizeof out);
  g_test_message ("%s", out);
  return g_strdup (out);
}

static void
test_own_file_missing (void)
{
  g_autofree char *by_name = explain ("libmgt_load_absent.so");
  g_assert_cmpstr (by_name, ==, "cannot find libmgt_load_absent.so (is its folder on LD_LIBRARY_PATH?)");
  g_autofree char *by_path = explain ("/nonexistent/libmgt_load_absent.so");
  g_assert_cmpstr (by_path, ==, "cannot find /nonexistent/libmgt_load_absent.so");
}

static void
test_dependency_missing (void)
{
  /* Alone in a folder of its own, the library it needs is not found. */
  g_autofree char *dir = g_dir_make_tmp ("mg-load-error-XXXXXX", NULL);
  g_autofree char *built = g_build_filename (g_getenv ("MG_LOAD_ERROR_DIR"), "libmgt_load_needs.so", NULL);
  g_autofree char *copy = g_build_filename (dir, "libmgt_load_needs.so", NULL);
  g_autofree char *contents = NULL;
  gsize size;

  g_assert_true (g_file_get_contents (built, &contents, &size, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) size, NULL));
  g_autofree char *why = explain (copy);
  g_autofree char *want = g_strdup_printf (
    "needs the library libmgt_load_dep.so, which is not found here (install it, or add its "
    "folder to LD_LIBRARY_PATH; %s was found)", copy);
  g_assert_cmpstr (why, ==, want);
  g_unlink (copy);
  g_rmdir (dir);
}

static void
test_undefined_symbol (void)
{
  g_autofree char *module = g_build_filename (g_getenv ("MG_LOAD_ERROR_DIR"), "libmgt_load_undefined.so", NULL);
  g_autofree char *why = explain (module);
  g_autofree char *want = g_strdup_printf (
    "uses the symbol mgt_nowhere, which no loaded library defines (link the plugin with the "
    "library that has it; %s was found)", module);
  g_assert_cmpstr (why, ==, want);
}

/* Every descriptor taken under a low limit: dlopen fails with EMFILE,
 * which is said as such, not as "cannot find". */
static void
test_too_many_files (void)
{
  g_autofree char *module = g_build_filename (g_getenv ("MG_LOAD_ERROR_DIR"),
                                              "libmgt_load_needs.so", NULL);
  struct rlimit old, low;
  g_autoptr (GArray) fds = g_array_new (FALSE, FALSE, sizeof (int));
  int fd;

  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &old), ==, 0);
  low = old;
  low.rlim_cur = 64;
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &low), ==, 0);
  while ((fd = open ("/dev/null", O_RDONLY)) >= 0)
    g_array_append_val (fds, fd);
  g_assert_null (dlopen (module, RTLD_NOW | RTLD_LOCAL));
  char out[512];
  mg_load_error_explain (module, dlerror (), out, sizeof out);
  for (guint i = 0; i < fds->len; i++)
    close (g_array_index (fds, int, i));
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &old), ==, 0);
  g_test_message ("%s", out);
  g_autofree char *want = g_strdup_printf ("cannot open %s: Too many open files (the process's "
                                           "descriptor limit, ulimit -n, is reached)", module);
  g_assert_cmpstr (out, ==, want);
}

static void
test_other_and_bounds (void)
{
  char small[16];

  mg_load_error_explain ("libx.so", "libx.so: invalid ELF header", small, sizeof small);
  g_assert_cmpstr (small, ==, "cannot load lib");
  char out[128];
  mg_load_error_explain ("libx.so", "libx.so: invalid ELF header", out, sizeof out);
  g_assert_cmpstr (out, ==, "cannot load libx.so, libx.so: invalid ELF header");
  mg_load_error_explain ("libx.so", NULL, out, sizeof out);
  g_assert_cmpstr (out, ==, "cannot load libx.so, ");
}

int
main (int argc, char **argv)
{
  /* meson puts the test libraries' folder on LD_LIBRARY_PATH, where the
   * dynamic linker would find the missing dependency: run again without. */
  if (g_getenv ("LD_LIBRARY_PATH") != NULL)
    {
      g_unsetenv ("LD_LIBRARY_PATH");
      execv ("/proc/self/exe", argv);
      g_error ("cannot run again without LD_LIBRARY_PATH: %s", g_strerror (errno));
    }
  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (g_getenv ("MG_LOAD_ERROR_DIR")); /* set by meson.build */
  g_test_add_func ("/load-error/own-file-missing", test_own_file_missing);
  g_test_add_func ("/load-error/dependency-missing", test_dependency_missing);
  g_test_add_func ("/load-error/undefined-symbol", test_undefined_symbol);
  g_test_add_func ("/load-error/too-many-files", test_too_many_files);
  g_test_add_func ("/load-error/other-and-bounds", test_other_and_bounds);
  return g_test_run ();
}
