/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session's helpers directly: output names, rank lists, the program
 * check, MPI launchers, install paths. */
#include "mg-config.h"

#include <elf.h>

#include <glib/gstdio.h>
#include <spawn.h>
#include <string.h>

#include "session/mg-install-paths.h"
#include "session/mg-mpi.h"
#include "session/mg-output-name.h"
#include "session/mg-program-check.h"
#include "session/mg-rank-list.h"
#include "session-test-support.h"

/* Each test works in its own folder, removed at the end. */
typedef struct {
  char *dir;
  char *workload;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("mg-session-test-XXXXXX", &error);
  g_assert_no_error (error);
  f->workload = session_test_program ("run-workload");
  g_assert_true (g_file_test (f->workload, G_FILE_TEST_IS_EXECUTABLE));
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (f->dir), ==, 0);
  g_free (f->dir);
  g_free (f->workload);
}

static char *
in_dir (Fixture *f, const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

static char *
build_path (const char *relative)
{
  return g_build_filename (g_getenv ("MG_BUILD_ROOT"), relative, NULL);
}

static void
test_output_name (Fixture *f, gconstpointer data)
{
  g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr (GDateTime) start = g_date_time_new_now_local ();
  g_autoptr (GDateTime) local = g_date_time_to_local (start);
  g_autofree char *name = mg_output_name_default ("/usr/bin/mmult", 8, 2, start);
  g_autofree char *stamp = g_date_time_format (local, "%Y-%m-%d_%H-%M");
  g_autofree char *expected = g_strdup_printf ("mmult_8p_2n_%s.mgprof", stamp);
  g_autofree char *path = in_dir (f, "run.mgprof");
  g_autofree char *path1 = in_dir (f, "run-1.mgprof");
  g_autofree char *path2 = in_dir (f, "run-2.mgprof");
  g_autofree char *unique = NULL;

  g_assert_cmpstr (name, ==, expected);
  g_assert_true (g_regex_match_simple ("^mmult_8p_2n_\\d{4}-\\d\\d-\\d\\d_\\d\\d-\\d\\d\\.mgprof$",
                                       name, 0, 0));
  unique = mg_output_name_make_unique (path);
  g_assert_cmpstr (unique, ==, path);
  g_assert_true (g_file_set_contents (path, "x", 1, NULL));
  g_clear_pointer (&unique, g_free);
  unique = mg_output_name_make_unique (path);
  g_assert_cmpstr (unique, ==, path1);
  g_assert_true (g_file_set_contents (path1, "x", 1, NULL));
  g_clear_pointer (&unique, g_free);
  unique = mg_output_name_make_unique (path);
  g_assert_cmpstr (unique, ==, path2);
}

static void
test_output_name_threads (Fixture *f, gconstpointer data)
{
  g_autoptr (GDateTime) start = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (start, "%Y-%m-%d_%H-%M");
  g_autofree char *with = mg_output_name_default_with_threads ("/x/mmult", 8, 1, 4, start);
  g_autofree char *without = mg_output_name_default_with_threads ("mmult", 8, 1, 0, start);
  g_autofree char *expected_with = g_strdup_printf ("mmult_8p_1n_4t_%s.mgprof", stamp);
  g_autofree char *expected_without = g_strdup_printf ("mmult_8p_1n_%s.mgprof", stamp);
  const struct {
    const char *value;   /* OMP_NUM_THREADS, NULL: unset */
    guint threads;
  } cases[] = {
    { NULL, 0 }, { "4", 4 }, { " 12 ", 12 }, { "8,2", 8 }, { "0", 0 }, { "-3", 0 },
    { "four", 0 }, { "", 0 }, { "99999999999", 0 },
  };

  g_assert_cmpstr (with, ==, expected_with);
  g_assert_cmpstr (without, ==, expected_without);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (GStrv) env = g_environ_setenv (NULL, "PATH", "/bin", TRUE);

      if (cases[i].value != NULL)
        env = g_environ_setenv (env, "OMP_NUM_THREADS", cases[i].value, TRUE);
      g_assert_cmpuint (mg_output_name_threads_from_environ ((const char *const *) env), ==,
                        cases[i].threads);
    }
}

static void
test_rank_list (Fixture *f, gconstpointer data)
{
  const struct {
    const char *in;
    const char *out;   /* NULL: an error naming the bad part */
    const char *bad;
  } cases[] = {
    { "5,6-10", "5-10", NULL },
    { "7, 1-3,2,4", "1-4,7", NULL },
    { "0", "0", NULL },
    { "3,1,3", "1,3", NULL },
    { "10-12,1-2,11-20", "1-2,10-20", NULL },
    { "2147483647", "2147483647", NULL },
    { "2147483648", NULL, "“2147483648”" },
    { "1,x", NULL, "“x”" },
    { "1-", NULL, "“1-”" },
    { "+1", NULL, "“+1”" },
    { "1;2", NULL, "“1;2”" },
    { "", NULL, "an empty entry" },
  };
  const int ranks[] = { 9, 1, 2, 3, 2, 7 };
  g_autofree char *from = mg_rank_list_from_ranks (ranks, G_N_ELEMENTS (ranks));
  g_autofree char *none = mg_rank_list_from_ranks (NULL, 0);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *out = mg_rank_list_normalise (cases[i].in, &error);

      if (cases[i].out != NULL)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (out, ==, cases[i].out);
        }
      else
        {
          g_assert_null (out);
          g_assert_error (error, MG_RANK_LIST_ERROR, MG_RANK_LIST_ERROR_INVALID);
          g_assert_nonnull (strstr (error->message, cases[i].bad));
        }
    }
  g_assert_cmpstr (from, ==, "1-3,7,9");
  g_assert_cmpstr (none, ==, "");
  g_assert_true (mg_rank_list_contains ("1-3,7", 2));
  g_assert_true (mg_rank_list_contains ("1-3,7", 7));
  g_assert_false (mg_rank_list_contains ("1-3,7", 4));
  g_assert_false (mg_rank_list_contains ("1-3,7", -1));
  g_assert_false (mg_rank_list_contains ("bad", 1));
}

static void
test_program_check (Fixture *f, gconstpointer data)
{
  g_autofree char *script = in_dir (f, "script.sh");
  g_autofree char *setuid_copy = in_dir (f, "setuid-copy");
  g_autofree char *static_prog = session_test_program ("run-workload-static");
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_cmpint (mg_program_check (f->workload), ==, MG_PROGRAM_DYNAMIC);
  if (g_file_test (static_prog, G_FILE_TEST_EXISTS))
    g_assert_cmpint (mg_program_check (static_prog), ==, MG_PROGRAM_STATIC);
  g_assert_true (g_file_set_contents (script, "#!/bin/sh\nexit 0\n", -1, NULL));
  g_assert_cmpint (mg_program_check (script), ==, MG_PROGRAM_NOT_ELF);
  g_assert_true (g_file_get_contents (f->workload, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (setuid_copy, contents, length, NULL));
  g_assert_cmpint (g_chmod (setuid_copy, 04755), ==, 0);
  g_assert_cmpint (mg_program_check (setuid_copy), ==, MG_PROGRAM_SETUID);
  g_assert_cmpint (mg_program_check ("/no/such/program"), ==, MG_PROGRAM_UNREADABLE);
  g_assert_nonnull (strstr (mg_program_kind_explain (MG_PROGRAM_STATIC), "statically"));

  /* A dynamic program of another class (32-bit) or machine: its loader
   * would refuse the sampler. */
  {
    g_autofree char *elf32 = in_dir (f, "elf32"), *other = in_dir (f, "other-machine");
    struct {
      Elf32_Ehdr ehdr;
      Elf32_Phdr phdr;
    } image = { 0 };
    guint16 machine = EM_AARCH64;
    Elf64_Ehdr *ehdr = (Elf64_Ehdr *) contents;

    memcpy (image.ehdr.e_ident, ELFMAG, SELFMAG);
    image.ehdr.e_ident[EI_CLASS] = ELFCLASS32;
    image.ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
    image.ehdr.e_machine = EM_386;
    image.ehdr.e_phoff = sizeof image.ehdr;
    image.ehdr.e_phentsize = sizeof image.phdr;
    image.ehdr.e_phnum = 1;
    image.phdr.p_type = PT_INTERP;
    g_assert_true (g_file_set_contents (elf32, (const char *) &image, sizeof image, NULL));
    g_assert_cmpint (mg_program_check (elf32), ==, MG_PROGRAM_WRONG_CLASS);

    if (ehdr->e_machine == machine)
      machine = EM_S390;
    ehdr->e_machine = machine;
    g_assert_true (g_file_set_contents (other, contents, length, NULL));
    g_assert_cmpint (mg_program_check (other), ==, MG_PROGRAM_WRONG_CLASS);
    g_assert_nonnull (strstr (mg_program_kind_explain (MG_PROGRAM_WRONG_CLASS),
                              "runs unprofiled"));
  }
}

static void
test_mpi (Fixture *f, gconstpointer data)
{
  const char *with_launcher[] = { "mpirun", "-n", "4", "--bind-to", "none", f->workload, "x", NULL };
  g_autofree char *guess = NULL;

  g_assert_true (mg_mpi_is_launcher ("mpirun"));
  g_assert_true (mg_mpi_is_launcher ("/usr/bin/srun"));
  g_assert_false (mg_mpi_is_launcher ("./mpirun-like"));
  g_assert_true (g_strv_contains (mg_mpi_get_skip_programs (), "orted"));
  guess = mg_mpi_guess_program (with_launcher);
  g_assert_cmpstr (guess, ==, f->workload);
}

/* This test program lives in the build folder, like the metrograph there. */
static void
test_install_paths (Fixture *f, gconstpointer data)
{
  g_autofree char *sampler = mg_install_paths_get_sampler ();
  g_autofree char *metrics = mg_install_paths_get_metrics_dir ();
  g_autofree char *built_sampler = build_path ("sampler/libmetrograph-sampler.so");
  g_autofree char *built_metrics = build_path ("plugins");

  g_assert_true (mg_install_paths_in_build_tree ());
  g_assert_cmpstr (sampler, ==, built_sampler);
  g_assert_cmpstr (metrics, ==, built_metrics);
  g_assert_true (g_file_test (sampler, G_FILE_TEST_IS_REGULAR));
}

static void
add (const char *path, void (*func) (Fixture *, gconstpointer))
{
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown);
}

/* A file at @name in the fixture's folder holding @text, executable. */
static char *
write_program (Fixture *f, const char *name, const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

/* Why a program did not start, named: a script whose #! interpreter is
 * missing (execve says ENOENT, and the message said "No such file or
 * directory (check that it is a program for this machine)" of a script
 * that is there), or not executable; a text file without a #! line
 * (ENOEXEC, "Exec format error"), which a shell would run with /bin/sh.
 * Anything else keeps the system's reason. The messages come from
 * posix_spawn's real errors. */
static void
test_spawn_failure (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = write_program (f, "missing.sh", "#!/no/such/interp -x\necho\n");
  g_autofree char *folder = write_program (f, "folder.sh", "#! /tmp\necho\n");
  g_autofree char *plain = write_program (f, "plain.sh", "echo no first line\n");
  g_autofree char *elf = write_program (f, "elf", "\177ELF\2\1\1");
  const char *argv[] = { "x", NULL };
  struct { const char *path, *name, *expected; } cases[] = {
    { missing, "./missing.sh", "cannot start ./missing.sh: its #! line names the interpreter "
      "/no/such/interp, which does not exist here (correct the script's first line, or "
      "install that interpreter)" },
    { folder, "./folder.sh", "cannot start ./folder.sh: its #! line names /tmp, which is not an "
      "executable program (correct the script's first line)" },
    { plain, "./plain.sh", "cannot start ./plain.sh: it is neither a program nor a script with "
      "a #! line (a shell runs such a file with /bin/sh: add “#!/bin/sh” as its first line, or "
      "profile “sh ./plain.sh”)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      pid_t pid;
      int rc = posix_spawn (&pid, cases[i].path, NULL, NULL, (char **) argv, NULL);
      g_autofree char *why = NULL;

      g_assert_cmpint (rc, !=, 0);
      why = mg_program_describe_start_failure (cases[i].path, cases[i].name, rc);
      g_assert_cmpstr (why, ==, cases[i].expected);
    }
  /* A broken ELF keeps the system's reason. */
  {
    pid_t pid;
    int rc = posix_spawn (&pid, elf, NULL, NULL, (char **) argv, NULL);
    g_autofree char *why = NULL;
    g_autofree char *expected = NULL;

    g_assert_cmpint (rc, !=, 0);
    why = mg_program_describe_start_failure (elf, "./elf", rc);
    expected = g_strdup_printf ("cannot start ./elf: %s (check that it is a program for this "
                                "machine)", g_strerror (rc));
    g_assert_cmpstr (why, ==, expected);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  add ("/session/helpers/output-name", test_output_name);
  add ("/session/helpers/output-name-threads", test_output_name_threads);
  add ("/session/helpers/rank-list", test_rank_list);
  add ("/session/helpers/program-check", test_program_check);
  add ("/session/helpers/mpi", test_mpi);
  add ("/session/helpers/install-paths", test_install_paths);
  add ("/session/helpers/spawn-failure", test_spawn_failure);
  return g_test_run ();
}
