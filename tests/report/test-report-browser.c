/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The HTML report in a real browser: Debian's chromium renders it headless
 * to a PNG, which must show the page (not blank) with its coloured bars.
 * Skipped, saying why, when chromium is not installed. */
#include "mg-config.h"

#include <cairo.h>
#include <glib/gstdio.h>

#include "report/mg-report-set.h"
#include "report/mg-report-writer.h"
#include "report-fixture.h"
#include "mg-test-common.h"


static void
test_render (void)
{
  g_autofree char *chromium = g_find_program_in_path ("chromium");
  g_autofree char *dir = NULL, *html_path = NULL, *png = NULL, *profile_dir = NULL;
  g_autofree char *uri = NULL, *screenshot = NULL, *user_data = NULL, *html = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (MgReportSet) set = NULL;
  g_autoptr (MgReport) report = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *installed = report_fixture_source_path ("data/reports");
  cairo_surface_t *surface;
  int status = 0, width, height, stride;
  guint64 ink = 0, coloured = 0;
  const guchar *data;

  if (chromium == NULL)
    {
      g_test_skip ("chromium is not installed (apt-get install chromium, or run "
                   "scripts/install-deps)");
      return;
    }
  dir = g_dir_make_tmp ("metrograph-report-browser-XXXXXX", &error);
  g_assert_no_error (error);
  html_path = g_build_filename (dir, "report.html", NULL);
  png = g_build_filename (dir, "report.png", NULL);
  profile_dir = g_build_filename (dir, "chromium", NULL);

  g_setenv ("XDG_DATA_HOME", "/nonexistent", TRUE);
  g_setenv ("ALLINEA_CONFIG_DIR", "/nonexistent", TRUE);
  profile = report_fixture_profile ();
  set = mg_report_set_load (NULL, installed);
  report = mg_report_new (profile, "solver.mgprof", set->reports);
  g_assert_true (mg_report_save (report, html_path, &error));
  g_assert_no_error (error);

  uri = g_filename_to_uri (html_path, NULL, &error);
  screenshot = g_strconcat ("--screenshot=", png, NULL);
  user_data = g_strconcat ("--user-data-dir=", profile_dir, NULL);
  {
    const char *argv[] = { chromium, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--window-size=1000,1400", user_data, screenshot,
                           uri, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                                 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                 NULL, NULL, NULL, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  width = cairo_image_surface_get_width (surface);
  height = cairo_image_surface_get_height (surface);
  stride = cairo_image_surface_get_stride (surface);
  data = cairo_image_surface_get_data (surface);
  g_assert_cmpint (width, ==, 1000);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint32 pixel = *(const guint32 *) (data + y * stride + x * 4);
        int r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff;
        int high = MAX (r, MAX (g, b)), low = MIN (r, MIN (g, b));

        if (high < 200)
          ink++;
        if (high - low > 80)
          coloured++;
      }
  cairo_surface_destroy (surface);
  /* Text covers a few per cent of the page, the bars a few thousand pixels. */
  g_test_message ("%" G_GUINT64_FORMAT " dark and %" G_GUINT64_FORMAT " coloured pixels of %d",
                  ink, coloured, width * height);
  g_assert_cmpuint (ink, >, (guint64) width * height / 100);
  g_assert_cmpuint (coloured, >, 5000);
  /* docs/images/report-html.png is this picture. */
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *kept = g_build_filename (g_getenv ("MG_GUI_SCREENSHOT_DIR"),
                                                "report-html.png", NULL);
      g_autoptr (GFile) from = g_file_new_for_path (png);
      g_autoptr (GFile) to = g_file_new_for_path (kept);

      g_assert_true (g_file_copy (from, to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
    }
  mg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/browser/render", test_render);
  return g_test_run ();
}
