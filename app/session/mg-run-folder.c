/* SPDX-License-Identifier: GPL-3.0-or-later */
/* F_OFD_SETLK, F_OFD_GETLK */
#define _GNU_SOURCE
#include "mg-config.h"

#include "mg-run-folder.h"

#include "profile/mg-record-folder.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_PREFIX "metrograph-"

/* The owner files this process holds locked, by run folder: closed (the
 * lock dropped) when the folder is removed or kept. */
static GHashTable *held_owners;
G_LOCK_DEFINE_STATIC (held_owners);

/* METROGRAPH_TMPDIR, else GLib's temporary folder ($TMPDIR, else /tmp),
 * made absolute from the current folder: the plan wants an absolute record
 * folder (TMPDIR=tmp refused the run: "cannot write the run plan: the
 * record folder is not an absolute path"). */
static char *
parent_folder (void)
{
  const char *parent = g_getenv ("METROGRAPH_TMPDIR");

  if (parent != NULL && *parent != '\0')
    return g_canonicalize_filename (parent, NULL);
  return g_canonicalize_filename (g_get_tmp_dir (), NULL);
}

/* Field 22 of a /proc/PID/stat: when the process started, in clock ticks
 * since boot. 0 when there is no such process. */
static guint64
start_time_from (const char *path)
{
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

guint64
mg_run_folder_process_start_time (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);

  return start_time_from (path);
}

/* This kernel's boot id ("" when unknown). */
static char *
boot_id (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (MG_RUN_FOLDER_BOOT_ID_PATH, &text, NULL, NULL))
    return g_strdup ("");
  return g_strdup (g_strstrip (text));
}

/* This process's PID namespace (0 when unknown). */
static guint64
pid_namespace (void)
{
  GStatBuf st;

  return g_stat (MG_RUN_FOLDER_PIDNS_PATH, &st) == 0 ? (guint64) st.st_ino : 0;
}

static char *
host_name (void)
{
  char host[256] = "";

  if (gethostname (host, sizeof host) != 0)
    host[0] = '\0';
  host[sizeof host - 1] = '\0';
  host[strcspn (host, "\n")] = '\0';
  return g_strdup (host);
}

/* The owner file, locked before it is written (a reader of a half-written
 * file cannot tell, and keeps the folder). /proc/self: in a PID namespace
 * whose /proc is the parent's, /proc/<getpid()> is another process. */
static gboolean
write_owner (const char *folder, GError **error)
{
  g_autofree char *path = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);
  g_autofree char *boot = boot_id ();
  g_autofree char *host = host_name ();
  struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
  g_autofree char *text = NULL;
  gboolean locked;
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  /* A file system without locks: the pid and its namespace say. */
  locked = fcntl (fd, F_OFD_SETLK, &lock) == 0;
  text = g_strdup_printf (MG_RUN_FOLDER_OWNER_FORMAT, (int) getpid (),
                          (unsigned long long) start_time_from ("/proc/self/stat"), boot,
                          (unsigned long long) pid_namespace (), host, locked ? 1 : 0);
  if (write (fd, text, strlen (text)) != (gssize) strlen (text))
    {
      int saved = errno;

      close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  if (!locked)
    {
      close (fd);
      return TRUE;
    }
  G_LOCK (held_owners);
  if (held_owners == NULL)
    held_owners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (held_owners, g_strdup (folder), GINT_TO_POINTER (fd));
  G_UNLOCK (held_owners);
  return TRUE;
}

/* Drops this process's lock on @folder's owner file, if it holds one. */
static void
release_owner (const char *folder)
{
  gpointer fd;

  G_LOCK (held_owners);
  if (held_owners != NULL && g_hash_table_lookup_extended (held_owners, folder, NULL, &fd))
    {
      close (GPOINTER_TO_INT (fd));
      g_hash_table_remove (held_owners, folder);
    }
  G_UNLOCK (held_owners);
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

/* Deletes @path and everything in it. */
static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static gboolean
is_retired_name (const char *name)
{
  return g_str_has_prefix (name, NAME_PREFIX) && g_str_has_suffix (name, MG_RUN_FOLDER_RETIRED);
}

/* A run folder is renamed before its files go: one whose removal a kill
 * cut short (its profile written, some records already deleted) is never
 * offered for recovery, which would write a second, partial profile; the
 * sweep finishes it. NULL when @path is no run folder or cannot be
 * renamed. */
static char *
retire (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *retired = NULL;

  if (!g_str_has_prefix (name, NAME_PREFIX) || is_retired_name (name))
    return NULL;
  retired = g_strconcat (path, MG_RUN_FOLDER_RETIRED, NULL);
  if (g_rename (path, retired) != 0)
    return NULL;
  return g_steal_pointer (&retired);
}

void
mg_run_folder_remove (const char *path)
{
  g_autofree char *retired = retire (path);

  remove_tree (retired != NULL ? retired : path);
  release_owner (path);
}

void
mg_run_folder_keep (const char *path)
{
  g_autofree char *owner = g_build_filename (path, MG_RUN_FOLDER_OWNER, NULL);

  g_unlink (owner);
  release_owner (path);
}

/* The owner file's fields; FALSE when there is none or it is unreadable.
 * Files of older versions have only the pid and the start (boot NULL). */
typedef struct {
  int pid;
  guint64 start;
  char *boot;
  guint64 pidns;
  char *host;
  gboolean lock;
} Owner;

static void
owner_clear (Owner *o)
{
  g_clear_pointer (&o->boot, g_free);
  g_clear_pointer (&o->host, g_free);
}

static gboolean
read_owner (const char *path, Owner *o)
{
  g_autofree char *file = g_build_filename (path, MG_RUN_FOLDER_OWNER, NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean have_pid = FALSE, have_start = FALSE, have_ns = FALSE, have_lock = FALSE;

  *o = (Owner) { 0 };
  if (!g_file_get_contents (file, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "pid "))
        have_pid = sscanf (line + 4, "%d", &o->pid) == 1 && o->pid > 0;
      else if (g_str_has_prefix (line, "start "))
        have_start = g_ascii_string_to_unsigned (line + 6, 10, 0, G_MAXUINT64, &o->start, NULL);
      else if (g_str_has_prefix (line, "boot ") && o->boot == NULL)
        o->boot = g_strdup (line + 5);
      else if (g_str_has_prefix (line, "pidns "))
        have_ns = g_ascii_string_to_unsigned (line + 6, 10, 0, G_MAXUINT64, &o->pidns, NULL);
      else if (g_str_has_prefix (line, "host ") && o->host == NULL)
        o->host = g_strdup (line + 5);
      else if (g_str_has_prefix (line, "lock "))
        have_lock = TRUE, o->lock = g_strcmp0 (line + 5, "1") == 0;
    }
  if (!have_pid || !have_start)
    {
      owner_clear (o);
      return FALSE;
    }
  /* A new file must be whole: one being written says nothing yet. */
  if (o->boot != NULL && (!have_ns || o->host == NULL || !have_lock))
    {
      owner_clear (o);
      return FALSE;
    }
  return TRUE;
}

gboolean
mg_run_folder_read_owner (const char *path, int *pid, guint64 *start_time)
{
  Owner o;

  if (!read_owner (path, &o))
    return FALSE;
  *pid = o.pid;
  *start_time = o.start;
  owner_clear (&o);
  return TRUE;
}

/* Whether another open file description holds the owner's lock: 1 held,
 * 0 free, -1 cannot tell (no locks on this file system). */
static int
lock_held (const char *path)
{
  g_autofree char *file = g_build_filename (path, MG_RUN_FOLDER_OWNER, NULL);
  struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
  int fd = open (file, O_RDONLY | O_CLOEXEC);
  int held;

  if (fd < 0)
    return -1;
  held = fcntl (fd, F_OFD_GETLK, &lock) != 0 ? -1 : lock.l_type != F_UNLCK;
  close (fd);
  return held;
}

MgRunFolderOwnerState
mg_run_folder_owner_state (const char *path, char **why)
{
  g_autofree char *boot = boot_id ();
  MgRunFolderOwnerState state;
  Owner o;
  int held;

  if (why != NULL)
    *why = NULL;
  if (!read_owner (path, &o))
    return MG_RUN_FOLDER_OWNER_NONE;
  if (o.boot == NULL)
    {
      state = MG_RUN_FOLDER_OWNER_UNKNOWN;
      if (why != NULL)
        *why = g_strdup_printf (_("its owner file, written by an older Metrograph, names "
                                  "process %d but not the machine or PID namespace it ran in"),
                                o.pid);
    }
  else if (*boot == '\0' || strcmp (o.boot, boot) != 0)
    {
      /* Another kernel: another machine sharing the folder, or an earlier
       * boot of this one. Its lock may not reach here. */
      state = MG_RUN_FOLDER_OWNER_UNKNOWN;
      if (why != NULL)
        *why = g_strdup_printf (_("its metrograph (process %d on host “%s”) ran on another "
                                  "machine or an earlier boot (boot id %s), which cannot be "
                                  "asked whether it still runs"), o.pid, o.host, o.boot);
    }
  else if (o.lock && (held = lock_held (path)) >= 0)
    /* The same kernel, in any namespace: the lock lives as long as its
     * holder. */
    state = held ? MG_RUN_FOLDER_OWNER_LIVE : MG_RUN_FOLDER_OWNER_DEAD;
  else if (o.pidns == pid_namespace () && o.pidns != 0)
    /* Another process with the same id started later. */
    state = mg_run_folder_process_start_time (o.pid) == o.start ? MG_RUN_FOLDER_OWNER_LIVE
                                                                : MG_RUN_FOLDER_OWNER_DEAD;
  else
    {
      state = MG_RUN_FOLDER_OWNER_UNKNOWN;
      if (why != NULL)
        *why = g_strdup_printf (_("its owner (process %d on host “%s”) ran in another PID "
                                  "namespace (a container), where that process id means "
                                  "nothing here, and holds no lock on it"), o.pid, o.host);
    }
  owner_clear (&o);
  return state;
}

gboolean
mg_run_folder_is_live (const char *path)
{
  return mg_run_folder_owner_state (path, NULL) == MG_RUN_FOLDER_OWNER_LIVE;
}

/* Ours: a run folder of our user. */
static gboolean
is_ours (const char *path)
{
  GStatBuf st;

  return g_lstat (path, &st) == 0 && S_ISDIR (st.st_mode) && st.st_uid == getuid ();
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

/* Calls found (path, pid) for every run folder of ours whose owner is
 * proven to have ended; unsure (path, why), when given, for those whose
 * owner cannot be asked. */
static void
for_each_stale (void (*found) (const char *path, int pid, gpointer data),
                void (*unsure) (const char *path, const char *why),
                void (*retired) (const char *path, gpointer data), gpointer data)
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
      g_autofree char *why = NULL;

      path = g_build_filename (parent, name, NULL);
      if (!is_ours (path))
        continue;
      /* Its profile was written; its front end (or a --recover, which
       * holds no lock) died removing it. */
      if (is_retired_name (name))
        {
          if (retired != NULL && mg_run_folder_owner_state (path, NULL) != MG_RUN_FOLDER_OWNER_LIVE)
            retired (path, data);
          continue;
        }
      switch (mg_run_folder_owner_state (path, &why))
        {
        case MG_RUN_FOLDER_OWNER_DEAD:
          mg_run_folder_read_owner (path, &pid, &start_time);
          found (path, pid, data);
          break;
        case MG_RUN_FOLDER_OWNER_UNKNOWN:
          if (unsure != NULL)
            unsure (path, why);
          break;
        default:
          break;
        }
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

  for_each_stale (add_recoverable, NULL, NULL, paths);
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

static void
finish_removal (const char *path, gpointer data)
{
  guint *n_removed = data;

  remove_tree (path);
  g_printerr (_("metrograph: removed %s, a run folder whose removal was cut short after its "
                "profile was written\n"), path);
  (*n_removed)++;
}

static void
keep_unsure (const char *path, const char *why)
{
  if (mg_run_folder_has_samples (path))
    g_printerr (_("metrograph: kept %s: %s; once that run has ended, metrograph --recover %s "
                  "writes its profile\n"), path, why, path);
  else
    g_printerr (_("metrograph: kept %s: %s; remove it once that run has ended\n"), path, why);
}

guint
mg_run_folder_sweep (void)
{
  guint n = 0;

  for_each_stale (sweep_one, keep_unsure, finish_removal, &n);
  return n;
}
