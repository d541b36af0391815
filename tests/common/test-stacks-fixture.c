/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shared stacks fixture (stacks-fixture.h): descriptions read into the
 * member the loader would hold, field by field against the member written
 * out in GVariant's text form; the member read back through a stack set;
 * mistakes stop the test naming their line. */
#include <math.h>

#include "stacks-fixture.h"

#include "profile/mg-profile-internal.h"
#include "profile/mg-profile-layout.h"
#include "profile/mg-stack-set.h"

#define STACKS_TYPE MG_PAYLOAD_STACKS_TYPE

static void
assert_member (GVariant *got, const char *want_text)
{
  g_autoptr (GVariant) want = g_variant_ref_sink (g_variant_new_parsed (want_text));

  if (!g_variant_equal (got, want))
    {
      g_autofree char *got_text = g_variant_print (got, TRUE);
      g_error ("member %s, expected %s", got_text, want_text);
    }
}

/* Frames callers first become innermost first; module 0 by default, "?:"
 * and "1:" as written; the same frames and flags are one stack of the
 * process, another thread another stack; taken the counts' sum unless
 * given; counts in the order of the lines; a build-id in hex. */
static void
test_member (void)
{
  g_autoptr (StacksFixture) f = stacks_fixture_new ();
  g_autoptr (GVariant) member = NULL;

  stacks_fixture_read (f, "module /opt/demo/prog abcd01\n"
                          "module /lib/libm.so\n"
                          "process 2   # the second of the profile\n"
                          "windows 0..0.5 0.5..1\n"
                          "0 0x1203;0x1100 30\n"
                          "1 0x1203;1:0x40 10 mpi thread 1\n"
                          "1 0x1203;0x1100 5\n"
                          "\n"
                          "1 ?:0x999 7 truncated unknown-frame\n"
                          "process 0 taken 100 lost 3 state 2\n"
                          "windows 0+0.25\n"
                          "stack -\n"
                          "0 0x1100 1 thread 0\n"
                          "0 - 2 flags 0x80\n");
  member = stacks_fixture_end (f);
  assert_member (member,
    "@" STACKS_TYPE " ([(b'/opt/demo/prog', [0xab, 0xcd, 0x01]), (b'/lib/libm.so', [])],"
    " [(2, 52, 0, 0,"
    "   [([(0, 0x1100), (0, 0x1203)], 0),"
    "    ([(1, 0x40), (0, 0x1203)], 131076)," /* MG_STACK_MPI | (1 + 1) << 16 */
    "    ([(0xffffffff, 0x999)], 3)],"
    "   [0.0, 0.5], [0.5, 1.0],"
    "   [(0, 0, 30), (1, 1, 10), (1, 0, 5), (1, 2, 7)]),"
    "  (0, 100, 3, 2,"
    "   [([], 0), ([(0, 0x1100)], 65536), ([], 0x80)],"
    "   [0.0], [0.25],"
    "   [(0, 1, 1), (0, 2, 2)])])");
}

/* The windows' three forms give the doubles a test computes itself. */
static void
test_windows (void)
{
  g_autoptr (StacksFixture) f = stacks_fixture_new ();
  g_autoptr (GVariant) member = NULL;
  g_autoptr (GVariant) proc = NULL, starts = NULL, ends = NULL;
  const double *s, *e;
  gsize n;

  stacks_fixture_read (f, "process 0\n"
                          "windows 100 over 4\n"
                          "process 1\n"
                          "windows 1/3+0.25 5e-10..2/3\n");
  member = stacks_fixture_end (f);
  g_variant_get_child (member, 1, "@a(ittua(a(ut)u)adada(uuu))", &proc);
  g_autoptr (GVariant) p0 = g_variant_get_child_value (proc, 0);
  starts = g_variant_get_child_value (p0, 5);
  ends = g_variant_get_child_value (p0, 6);
  s = g_variant_get_fixed_array (starts, &n, sizeof (double));
  g_assert_cmpuint (n, ==, 100);
  e = g_variant_get_fixed_array (ends, &n, sizeof (double));
  for (guint w = 0; w < 100; w++)
    {
      double dt = 4.0 / 100;
      g_assert_true (s[w] == w * dt);
      g_assert_true (e[w] == (w + 1) * dt);
    }
  g_autoptr (GVariant) p1 = g_variant_get_child_value (proc, 1);
  g_clear_pointer (&starts, g_variant_unref);
  g_clear_pointer (&ends, g_variant_unref);
  starts = g_variant_get_child_value (p1, 5);
  ends = g_variant_get_child_value (p1, 6);
  s = g_variant_get_fixed_array (starts, &n, sizeof (double));
  g_assert_cmpuint (n, ==, 2);
  e = g_variant_get_fixed_array (ends, &n, sizeof (double));
  g_assert_true (s[0] == 1.0 / 3 && e[0] == 1.0 / 3 + 0.25);
  g_assert_true (s[1] == 5e-10 && e[1] == 2.0 / 3);
}

/* Names stand for frames given at run time, with offsets either way. */
static void
test_names (void)
{
  g_autoptr (StacksFixture) f = stacks_fixture_new ();
  g_autoptr (GVariant) member = NULL;
  guint exe = stacks_fixture_add_module (f, "/proc/self/exe", NULL, 0);

  g_assert_cmpuint (exe, ==, 0);
  stacks_fixture_name (f, "main", 0, 0x1000);
  stacks_fixture_name (f, "wait", MG_STACK_MODULE_UNKNOWN, 0x7f00);
  stacks_fixture_read (f, "process 0\nwindows 0..1\n0 main+2;wait-1 4\n0 main 1\n");
  member = stacks_fixture_end (f);
  assert_member (member,
    "@" STACKS_TYPE " ([(b'/proc/self/exe', [])],"
    " [(0, 5, 0, 0,"
    "   [([(0xffffffff, 0x7eff), (0, 0x1002)], 0), ([(0, 0x1000)], 0)],"
    "   [0.0], [1.0], [(0, 0, 4), (0, 1, 1)])])");
}

/* Installed in a profile, the member reads as stacks: the same stack of
 * two processes merged, counts by range and by thread. "processes" sets
 * what it is checked against, for a profile made for its stacks alone. */
static void
test_install (void)
{
  g_autoptr (MgProfile) profile = mg_profile_new_empty ();

  stacks_fixture_set (profile, "processes 3\n"
                               "process 0\n"
                               "windows 0..1 1..2\n"
                               "0 0x101;0x202 5 thread 0\n"
                               "1 0x101;0x202 3 thread 1\n"
                               "process 2\n"
                               "windows 0..2\n"
                               "0 0x101;0x202 4\n"
                               "0 0x101 2\n");
  g_autoptr (MgStackSet) all = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_total (all), ==, 14);
  g_assert_cmpuint (mg_stack_set_get_taken (all), ==, 14);
  g_assert_cmpuint (mg_stack_set_get_n_stacks (all), ==, 2);
  g_assert_cmpuint (mg_stack_set_get_n_processes (all), ==, 2);
  g_assert_cmpuint (mg_stack_set_get_n_threads (all), ==, 2);
  g_autoptr (MgStackSet) late = mg_stack_set_new (profile, 0, 1, 2);
  g_assert_cmpuint (mg_stack_set_get_total (late), ==, 3);
  g_autoptr (MgStackSet) main_thread = mg_stack_set_new_for_thread (profile, 0, MG_STACK_THREAD_MAIN,
                                                                     -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_total (main_thread), ==, 5);
  guint n_frames, flags;
  const MgStackFrame *frames = mg_stack_set_get_frames (main_thread, 0, &n_frames, &flags);
  g_assert_cmpuint (n_frames, ==, 2);
  g_assert_cmpuint (frames[0].vaddr, ==, 0x202);
  g_assert_cmpuint (frames[0].module, ==, MG_STACK_MODULE_UNKNOWN);
}

/* Each mistake stops the test with a message naming its line and what is
 * wrong (in a subprocess: g_error aborts). "?" stands for the quotes, which
 * GLib writes as "?" outside a UTF-8 locale. */
static void
test_mistakes (void)
{
  static const struct {
    const char *description;
    const char *message;
  } cases[] = {
    { "process 0\n\n0 main;a 3\n", "*line 3: frame ?a? is no address, nor a name*" },
    { "0 0x10 3\n", "*line 1: stacks, windows and counts belong to a process*" },
    { "process 0\nwindows 0..1\n0 0x10 3 hot\n", "*line 3: ?hot? is no option of a stack*" },
    { "process 0\nwindows 0-1\n", "*line 2: window ?0-1? is neither START..END nor*" },
    { "process 0\n0 2:0x10 1\n", "*line 2: frame ?2:0x10?: the fixture has 0 modules*" },
    { "module /p abc\n", "*line 1: build-id ?abc? has an odd number of digits*" },
    { "process 0 taken x\n", "*line 1: ?x? is no taken*" },
    { "frames 1\n", "*line 1: ?frames?: a line is module, processes, process, windows*" },
  };

  if (g_test_subprocess ())
    {
      guint i = (guint) g_ascii_strtoull (g_getenv ("STACKS_FIXTURE_CASE"), NULL, 10);
      g_autoptr (StacksFixture) f = stacks_fixture_new ();
      stacks_fixture_read (f, cases[i].description);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *which = g_strdup_printf ("%u", i);
      g_setenv ("STACKS_FIXTURE_CASE", which, TRUE);
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_failed ();
      g_test_trap_assert_stderr (cases[i].message);
    }
}

/* The loader's check holds: a count in a window the process does not
 * have is refused where it is installed. */
static void
test_checked (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (MgProfile) profile = mg_profile_new_empty ();
      stacks_fixture_set (profile, "processes 1\nprocess 0\nwindows 0..1\n1 0x10 3\n");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*do not pass the loader's check for 1 processes*");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stacks-fixture/member", test_member);
  g_test_add_func ("/stacks-fixture/windows", test_windows);
  g_test_add_func ("/stacks-fixture/names", test_names);
  g_test_add_func ("/stacks-fixture/install", test_install);
  g_test_add_func ("/stacks-fixture/mistakes", test_mistakes);
  g_test_add_func ("/stacks-fixture/checked", test_checked);
  return g_test_run ();
}
