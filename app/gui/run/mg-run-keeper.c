/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-keeper.h"

#include <glib-unix.h>
#include <signal.h>

#define KEEPER_KEY "mg-run-keeper"
#define SIGNALS_KEY "mg-run-keeper-signals"

static gboolean
on_quit_signal (gpointer app)
{
  g_application_quit (app);
  return G_SOURCE_CONTINUE;
}

/* SIGTERM, SIGINT and SIGHUP quit the application as app.quit's last step
 * does (its shutdown kills the runs and removes their folders) instead of
 * ending it where it stands. Once per application. */
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
