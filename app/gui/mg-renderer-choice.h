/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How GTK draws the viewer: with GL or with cairo.
 *
 * GTK 4.8 sets GL up while it opens the display (gtk_init) and then draws
 * with its GL renderer. Where GL has no GPU behind it (no DRM render node:
 * VMs, cluster login nodes; a display reached over the network: ssh -X; an
 * X server that cannot share buffers with a local GPU: Xvfb, VNC) Mesa
 * draws in software (llvmpipe): loading it makes gtk_init 110–200 ms
 * slower, the first frame ~150 ms slower again (shaders compiled in
 * software), and a frame while panning takes ~28 ms, below 60 fps. The
 * cairo renderer draws the same window at 60 fps without any of that
 * (docs/graphs.md, "GL or cairo"). So where GL would be
 * software the viewer starts GTK with GL disabled and the cairo renderer
 * named on the display, unless the user chose a renderer (GSK_RENDERER).
 * A GDK_DEBUG of the user's is kept (gl-disable is added to it for the
 * time of gtk_init).
 *
 * Nothing of this is left in the environment, so programs the viewer
 * launches (the profiled program, a file manager) never inherit it. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What decides whether GL would run on a GPU. */
typedef struct {
  gboolean gpu;    /* a GPU device we may open: /dev/dri/renderD*, or NVIDIA's */
  gboolean remote; /* the display is reached over the network (X11 over TCP, ssh -X) */
  gboolean direct; /* the display server shares buffers with local GL clients
                    * (X11: DRI3, DRI2 or NVIDIA's GLX; Wayland: always) */
} MgGlPath;

/* The renderer to ask for: NULL to leave GTK's choice (the user's
 * GSK_RENDERER, else GL), or "cairo" where GL would be drawn in software.
 * user_choice: GSK_RENDERER's value (NULL or empty: none; when set, path
 * may be NULL). why (optional): set to a short reason (English, for logs
 * and the benchmark). */
const char *mg_renderer_choose (const char *user_choice, const MgGlPath *path,
                                const char **why);

/* A readable and writable GPU device under dev_dir ("/dev"). */
gboolean mg_renderer_has_gpu (const char *dev_dir);
/* An X11 display name ("host:0.0", "localhost:10.0") reached over TCP
 * rather than a local socket (":0", "unix:0"). */
gboolean mg_renderer_display_is_remote (const char *display_name);
/* The GDK backend gtk_init would open, from GDK_BACKEND, WAYLAND_DISPLAY
 * and DISPLAY in envp: "wayland", "x11", or NULL (another or none). */
const char *mg_renderer_guess_backend (const char *const *envp);
/* The facts before GTK is initialised (an X server is asked about its
 * extensions on a connection of our own, when there is a GPU). */
void mg_renderer_probe (const char *const *envp, MgGlPath *path);

/* GDK_DEBUG's value with GL disabled added to what the user had (NULL:
 * nothing); NULL when GL is disabled already. Free with g_free. */
char *mg_renderer_gdk_debug_without_gl (const char *gdk_debug);

/* gtk_init_check the viewer's way (see above). Call it before any other
 * thread starts: it changes the environment for the time of gtk_init.
 * Returns gtk_init_check's result; renderer and why (optional): the
 * renderer asked for (NULL: GTK's own choice) and the reason. */
gboolean mg_renderer_init_gtk (const char **renderer, const char **why);

G_END_DECLS
