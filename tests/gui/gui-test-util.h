/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the viewer's window tests share: the test environment (scratch home,
 * the schema compiled into the build tree, the memory settings backend, the
 * cairo renderer, the test accessibility backend), a registered
 * MgApplication, and helpers to wait, find widgets and read pixels. */
#pragma once

#include <gtk/gtk.h>

#include "profile/mg-profile.h"
#include "gui/mg-window.h"
#include "mg-test-common.h"

G_BEGIN_DECLS

extern GtkApplication *gui_test_app;

/* Sets up the environment, g_test_init, gtk_init and gui_test_app. */
void gui_test_init (int *argc, char ***argv);
/* Runs the tests, then frees the app and the scratch home. */
int gui_test_run (void);

/* A presented 1100 × 720 window showing profile (NULL: the start page). */
MgWindow *gui_test_new_window (MgProfile *profile);
void gui_test_wait_loaded (MgWindow *window);
/* The window's side panel (its revealer) once shown in full (the
 * animation is slower on a loaded machine) and laid out: after its
 * show-info action was turned on. */
GtkWidget *gui_test_side_panel (MgWindow *window);
void gui_test_activate (MgWindow *window, const char *action, GVariant *parameter);
void gui_test_reset_settings (void);
void gui_test_assert_strv (char **got, const char *const *expected);

/* The first widget of type in root's tree (root included), or NULL. */
GtkWidget *gui_test_find_widget (GtkWidget *root, GType type);
/* The first label under root (root included) showing text exactly, or
 * NULL. */
GtkWidget *gui_test_find_label (GtkWidget *root, const char *text);
/* The widget as drawn, through its window's renderer. */
GdkTexture *gui_test_render (GtkWidget *widget);
/* Pixels of texture inside rect within tolerance of the colour. */
guint gui_test_count_colour (GdkTexture *texture, const graphene_rect_t *rect, guint8 r, guint8 g,
                             guint8 b, int tolerance);
/* Asserts that every icon-only button under root (its child an image, or a
 * menu button with an icon and no label) has an accessible name, and
 * returns how many there are: GTK 4.8 names a button by its label only. */
guint gui_test_assert_icon_buttons_named (GtkWidget *root);
/* With MG_GUI_SCREENSHOT_DIR set, the window as drawn into DIR/name. */
void gui_test_save_screenshot (MgWindow *window, const char *name);

/* A display of the test's own (Xvfb -displayfd), with openbox as window
 * manager when with_wm: so the display other tests share is left alone.
 * NULL when Xvfb (or openbox) is missing. */
typedef struct {
  GSubprocess *xvfb;
  GSubprocess *wm;
  GdkDisplay *display;
  char *name;
} GuiTestDisplay;

GuiTestDisplay *gui_test_display_new (gboolean with_wm);
void gui_test_display_free (GuiTestDisplay *display);

G_END_DECLS
