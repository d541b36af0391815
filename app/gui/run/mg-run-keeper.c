/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-keeper.h"

#include "mg-run-end.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>

#define KEEPER_KEY "mg-run-keeper"
#define SIGNALS_KEY "mg-run-keeper-signals"

#define SIGNALLED_KEY "mg-run-keeper-signalled"

/* The first signal stops the runs and quits once their profiles are
 * written, as the command line writes its profile after a forwarded
 * signal; the next quits at once (the shutdown kills what is left and
 * removes its records). */
static gboolean
on_quit_signal (gpointer app)
{
  g_autoptr (GPtrArray) busy = mg_run_keeper_dup_busy (app);

  if (g_object_get_data (G_OBJECT (app), SIGNALLED_KEY) != NULL || busy->len == 0)
    {
      g_application_quit (app);
      return G_SOURCE_CONTINUE;
    }
  g_object_set_data (G_OBJECT (app), SIGNALLED_KEY, GINT_TO_POINTER (TRUE));
  g_printerr (g_dngettext (GETTEXT_PACKAGE,
                           "metrograph: stopping the program being profiled and writing its "
                           "profile, then quitting; a second signal quits at once and "
                           "discards what was recorded\n",
                           "metrograph: stopping the programs being profiled and writing their "
                           "profiles, then quitting; a second signal quits at once and "
                           "discards what was recorded\n",
                           busy->len));
  mg_run_end_stop_and_quit (app);
  return G_SOURCE_CONTINUE;
}

/* SIGTERM, SIGINT and SIGHUP end the application through its main loop
 * (on_quit_signal) instead of where it stands. Once per application. */
static void
quit_on_signals (GApplication *app)
{
  static const int quitting[] = { SIGTERM, SIGINT, SIGHUP };

  if (g_object_get_data (G_OBJECT (app), SIGNALS_KEY) != NULL)
    return;
  g_object_set_data (G_OBJECT (app), SIGNALS_KEY, GINT_TO_POINTER (TRUE));
  for (guint i = 0; i < G_N_ELEMENTS (quitting); i++)
    g_unix_signal_add (quitting[i], on_quit_signal, app);
}

/* The application's unfinished sessions, kept as its data. */
static GPtrArray *
busy_list (GApplication *app)
{
  GPtrArray *busy = g_object_get_data (G_OBJECT (app), KEEPER_KEY);

  if (busy == NULL)
    {
      busy = g_ptr_array_new_with_free_func (g_object_unref);
      g_object_set_data_full (G_OBJECT (app), KEEPER_KEY, busy, (GDestroyNotify) g_ptr_array_unref);
    }
  return busy;
}

static void
on_state (MgRunSession *session, GParamSpec *pspec, GApplication *app)
{
  if (!mg_run_session_is_finished (session))
    return;
  g_signal_handlers_disconnect_by_func (session, on_state, app);
  g_ptr_array_remove (busy_list (app), session);
  g_application_release (app);
}

void
mg_run_keeper_watch (GApplication *app, MgRunSession *session)
{
  GPtrArray *busy;

  g_return_if_fail (G_IS_APPLICATION (app));
  busy = busy_list (app);
  if (mg_run_session_is_finished (session) || g_ptr_array_find (busy, session, NULL))
    return;
  quit_on_signals (app);
  g_ptr_array_add (busy, g_object_ref (session));
  g_application_hold (app);
  g_signal_connect (session, "notify::state", G_CALLBACK (on_state), app);
}

GPtrArray *
mg_run_keeper_dup_busy (GApplication *app)
{
  GPtrArray *busy = busy_list (app);
  GPtrArray *copy = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < busy->len; i++)
    g_ptr_array_add (copy, g_object_ref (g_ptr_array_index (busy, i)));
  return copy;
}

void
mg_run_keeper_kill_all (GApplication *app)
{
  GPtrArray *busy = busy_list (app);

  for (guint i = 0; i < busy->len; i++)
    mg_run_session_kill_now (g_ptr_array_index (busy, i));
}
