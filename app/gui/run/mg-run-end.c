/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-end.h"

#include <glib/gi18n.h>

#include "mg-run-keeper.h"

/* The runs being ended, and what to do once all have finished. */
typedef struct {
  GPtrArray *sessions;        /* MgRunSession* */
  GCallback done;             /* void (*) (gpointer target) */
  gpointer target;            /* a weak pointer to the window or application */
} Ending;

static void
ending_free (Ending *ending)
{
  for (guint i = 0; i < ending->sessions->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (ending->sessions, i), ending);
  g_ptr_array_unref (ending->sessions);
  if (ending->target != NULL)
    g_object_remove_weak_pointer (ending->target, &ending->target);
  g_free (ending);
}

static gboolean
all_finished (Ending *ending)
{
  for (guint i = 0; i < ending->sessions->len; i++)
    if (!mg_run_session_is_finished (g_ptr_array_index (ending->sessions, i)))
      return FALSE;
  return TRUE;
}

static void
check_finished (Ending *ending)
{
  gpointer target = ending->target;
  void (*done) (gpointer) = (void (*) (gpointer)) ending->done;

  if (!all_finished (ending))
    return;
  if (target != NULL)
    {
      g_object_remove_weak_pointer (target, &ending->target);
      ending->target = NULL;
    }
  ending_free (ending);
  if (target != NULL)
    done (target);
}

static void
on_session_state (MgRunSession *session, GParamSpec *pspec, Ending *ending)
{
  check_finished (ending);
}

/* Stop (the profile is written) or cancel every session, then done. */
static void
end_sessions (GPtrArray *sessions, MgRunEndChoice choice, GCallback done, gpointer target)
{
  Ending *ending = g_new0 (Ending, 1);

  ending->sessions = g_ptr_array_ref (sessions);
  ending->done = done;
  ending->target = target;
  g_object_add_weak_pointer (target, &ending->target);
  for (guint i = 0; i < sessions->len; i++)
    {
      MgRunSession *session = g_ptr_array_index (sessions, i);

      g_signal_connect (session, "notify::state", G_CALLBACK (on_session_state), ending);
      if (choice == MG_RUN_END_STOP_AND_SAVE)
        mg_run_session_stop (session);
      else
        mg_run_session_cancel (session);
    }
  check_finished (ending);
}

typedef struct {
  GPtrArray *sessions;
  GCallback done;
  gpointer target;
} Question;

static void
on_response (GtkDialog *dialog, int response, gpointer user_data)
{
  Question *question = user_data;

  gtk_window_destroy (GTK_WINDOW (dialog));
  if ((response == MG_RUN_END_STOP_AND_SAVE || response == MG_RUN_END_DISCARD)
      && question->target != NULL)
    end_sessions (question->sessions, (MgRunEndChoice) response, question->done, question->target);
  if (question->target != NULL)
    g_object_remove_weak_pointer (question->target, &question->target);
  g_ptr_array_unref (question->sessions);
  g_free (question);
}

static void
ask (GtkWindow *parent, GPtrArray *sessions, GCallback done, gpointer target)
{
  Question *question = g_new0 (Question, 1);
  guint n = sessions->len;
  GtkWidget *dialog =
    gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                            GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s",
                            g_dngettext (GETTEXT_PACKAGE, "A Program Is Being Profiled",
                                         "Programs Are Being Profiled", n));

  gtk_message_dialog_format_secondary_text (
    GTK_MESSAGE_DIALOG (dialog), "%s",
    g_dngettext (GETTEXT_PACKAGE,
                 "Stop it and keep its profile, or end it and discard what was recorded?",
                 "Stop them and keep their profiles, or end them and discard what was recorded?",
                 n));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Keep Running"), MG_RUN_END_KEEP_RUNNING,
                          _("_Discard"), MG_RUN_END_DISCARD,
                          _("_Stop and Keep Profile"), MG_RUN_END_STOP_AND_SAVE, NULL);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog),
                                                                MG_RUN_END_DISCARD),
                            "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), MG_RUN_END_STOP_AND_SAVE);
  question->sessions = g_ptr_array_ref (sessions);
  question->done = done;
  question->target = target;
  g_object_add_weak_pointer (target, &question->target);
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), question);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
quit_now (gpointer app)
{
  g_application_quit (G_APPLICATION (app));
}

void
mg_run_end_quit (GtkApplication *app)
{
  g_autoptr (GPtrArray) busy = mg_run_keeper_dup_busy (G_APPLICATION (app));

  if (busy->len == 0)
    {
      g_application_quit (G_APPLICATION (app));
      return;
    }
  ask (gtk_application_get_active_window (app), busy, G_CALLBACK (quit_now), app);
}

void
mg_run_end_stop_and_quit (GApplication *app)
{
  g_autoptr (GPtrArray) busy = mg_run_keeper_dup_busy (app);

  if (busy->len == 0)
    {
      g_application_quit (app);
      return;
    }
  end_sessions (busy, MG_RUN_END_STOP_AND_SAVE, G_CALLBACK (quit_now), app);
}

void
mg_run_end_close_window (GtkWindow *window, MgRunSession *session)
{
  g_autoptr (GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (sessions, g_object_ref (session));
  ask (window, sessions, G_CALLBACK (gtk_window_destroy), window);
}
