/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-folder.h"

#include "profile/mg-record-folder.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_PREFIX "metrograph-"

/* METROGRAPH_TMPDIR (absolute: the plan wants an absolute record folder),
 * else GLib's temporary folder. */
static char *
parent_folder (void)
{
  const char *parent = g_getenv ("METROGRAPH_TMPDIR");

  if (parent != NULL && *parent != '\0')
    return g_canonicalize_filename (parent, NULL);
  return g_strdup (g_get_tmp_dir ());
}

/* Field 22 of /proc/PID/stat: when the process started, in clock ticks
 * since boot. 0 when there is no such process. */
guint64
mg_run_folder_process_start_time (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;
  const char *after_name;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  /* The name (field 2) may hold spaces and parentheses: start after the
   * last ')'. Then field 3 is the first. */
  after_name = strrchr (text, ')');
  if (after_name == NULL)
    return 0;
  fields = g_strsplit (after_name + 2, " ", -1);
  if (g_strv_length (fields) < 20)
    return 0;
  return g_ascii_strtoull (fields[22 - 3], NULL, 10);
}

static gboolean
write_owner (const char *folder, GError **error)
{
  g_autofree char *path = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);
  g_autofree char *text = g_strdup_printf (
    MG_RUN_FOLDER_OWNER_FORMAT, (int) getpid (),
    (unsigned long long) mg_run_folder_process_start_time ((int) getpid ()));

  return g_file_set_contents (path, text, -1, error);
}

char *
mg_run_folder_create (GError **error)
{
  g_autofree char *parent = parent_folder ();
  g_autofree char *path = g_build_filename (parent, NAME_PREFIX "XXXXXX", NULL);
  g_autoptr (GError) local_error = NULL;

  if (g_mkdtemp (path) == NULL)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", parent,
                   g_strerror (errno));
      return NULL;
    }
  if (!write_owner (path, &local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      mg_run_folder_remove (path);
      return NULL;
    }
  return g_steal_pointer (&path);
}

void
mg_run_folder_remove (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        mg_run_folder_remove (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
mg_run_folder_keep (const char *path)
{
  g_autofree char *owner = g_build_filename (path, MG_RUN_FOLDER_OWNER, NULL);

  g_unlink (owner);
}

gboolean
mg_run_folder_read_owner (const char *path, int *pid, guint64 *start_time)
{
  g_autofree char *owner = g_build_filename (path, MG_RUN_FOLDER_OWNER, NULL);
  g_autofree char *text = NULL;

  unsigned long long start = 0;

  if (!g_file_get_contents (owner, &text, NULL, NULL)
      || sscanf (text, MG_RUN_FOLDER_OWNER_FORMAT, pid, &start) != 2 || *pid <= 0)
    return FALSE;
  *start_time = start;
  return TRUE;
}

gboolean
mg_run_folder_is_live (const char *path)
{
  int pid;
  guint64 start_time;

  if (!mg_run_folder_read_owner (path, &pid, &start_time))
    return FALSE;
  /* Another process with the same id started later. */
  return mg_run_folder_process_start_time (pid) == start_time;
}

/* Ours, and a run folder whose front end is gone. */
static gboolean
is_stale (const char *path)
{
  GStatBuf st;
  int pid;
  guint64 start_time;

  return g_lstat (path, &st) == 0 && S_ISDIR (st.st_mode) && st.st_uid == getuid ()
         && mg_run_folder_read_owner (path, &pid, &start_time) && !mg_run_folder_is_live (path);
}

static gboolean
no_samples (const char *path, const MgRecordHeader *header, gpointer data)
{
  gboolean *found = data;

  *found = header->n_samples > 0;
  return !*found;
}

gboolean
mg_run_folder_has_samples (const char *path)
{
  g_autofree char *records = g_build_filename (path, MG_RUN_FOLDER_RECORDS, NULL);
  gboolean found = FALSE;

  mg_record_folder_foreach (records, no_samples, &found);
  return found;
}

/* Calls found (path, pid) for every stale run folder of ours. */
static void
for_each_stale (void (*found) (const char *path, int pid, gpointer data), gpointer data)
{
  g_autofree char *parent = parent_folder ();
  g_autoptr (GDir) dir = g_dir_open (parent, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      int pid = 0;
      guint64 start_time;

      if (!g_str_has_prefix (name, NAME_PREFIX))
        continue;
      path = g_build_filename (parent, name, NULL);
      if (!is_stale (path))
        continue;
      mg_run_folder_read_owner (path, &pid, &start_time);
      found (path, pid, data);
    }
}

static void
add_recoverable (const char *path, int pid, gpointer data)
{
  if (mg_run_folder_has_samples (path))
    g_ptr_array_add (data, g_strdup (path));
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

GStrv
mg_run_folder_find_recoverable (void)
{
  GPtrArray *paths = g_ptr_array_new ();

  for_each_stale (add_recoverable, paths);
  g_ptr_array_sort (paths, compare_paths);
  g_ptr_array_add (paths, NULL);
  return (GStrv) g_ptr_array_free (paths, FALSE);
}

static void
sweep_one (const char *path, int pid, gpointer data)
{
  guint *n_removed = data;

  if (mg_run_folder_has_samples (path))
    {
      g_printerr (_("metrograph: %s holds the records of a run whose metrograph (process %d) "
                    "ended before writing its profile; metrograph --recover %s writes it\n"),
                  path, pid, path);
      return;
    }
  mg_run_folder_remove (path);
  g_printerr (_("metrograph: removed %s, left by metrograph process %d, which ended "
                "without removing it\n"), path, pid);
  (*n_removed)++;
}

guint
mg_run_folder_sweep (void)
{
  guint n = 0;

  for_each_stale (sweep_one, &n);
  return n;
}
