/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "code-fixture.h"

#include <link.h>

#include "gui-fixtures.h"
#include "gui/mg-code-view-private.h"
#include "gui/mg-window-private.h"
#include "mg-test-common.h"
#include "mpi-frame-fixture.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-set.h"
#include "stacks-fixture.h"

/* Functions of this program the stacks point into: kept out of line and
 * apart, so that an address inside each names it. */
G_GNUC_NO_INLINE int code_fixture_c (int x);
G_GNUC_NO_INLINE int code_fixture_b (int x);
G_GNUC_NO_INLINE int code_fixture_a (int x);
G_GNUC_NO_INLINE int code_fixture_main (int x);
G_GNUC_NO_INLINE int code_fixture_d (int x);
G_GNUC_NO_INLINE int code_fixture_two (int x, gpointer *first, gpointer *second);

static volatile int sink;

G_GNUC_NO_INLINE int
code_fixture_c (int x)
{
  sink = x * 3;
  return sink + 1;
}

G_GNUC_NO_INLINE int
code_fixture_b (int x)
{
  sink = code_fixture_c (x) * 5;
  return sink + 2;
}

G_GNUC_NO_INLINE int
code_fixture_a (int x)
{
  sink = code_fixture_c (x) * 7;
  return sink + 3;
}

G_GNUC_NO_INLINE int
code_fixture_main (int x)
{
  sink = code_fixture_a (x) + code_fixture_b (x);
  return sink + 4;
}

/* Where code_fixture_d was last called from. */
static gpointer volatile d_returns_to;

G_GNUC_NO_INLINE int
code_fixture_d (int x)
{
  d_returns_to = __builtin_return_address (0);
  sink = x;
  return sink;
}

/* Calls d from two lines (code_fixture.h), FIRST and SECOND the return
 * addresses of the two calls. */
G_GNUC_NO_INLINE int
code_fixture_two (int x, gpointer *first, gpointer *second)
{
  sink = code_fixture_d (x);
  *first = d_returns_to;
  sink = code_fixture_d (x + 1);
  *second = d_returns_to;
  return sink;
}

static int
first_object (struct dl_phdr_info *info, size_t size, void *data)
{
  *(guint64 *) data = info->dlpi_addr;
  return 1;
}

/* The ELF virtual address of a function (or a return address) of this
 * program, plus offset. */
static guint64
vaddr_of (gpointer fn, guint offset)
{
  guint64 bias = 0;
  dl_iterate_phdr (first_object, &bias);
  return (guint64) (guintptr) fn - bias + offset;
}

/* A stacks fixture with this program as its module 0 and its functions
 * named main, a, b, c and d, each its first byte: the stacks below sample
 * a leaf inside its function (+1) and their callers' return addresses two
 * bytes in (+2, named one byte earlier). */
static StacksFixture *
code_fixture_stacks (void)
{
  StacksFixture *f = stacks_fixture_new ();
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  static const struct {
    const char *name;
    gpointer fn;
  } functions[] = {
    { "main", code_fixture_main }, { "a", code_fixture_a }, { "b", code_fixture_b },
    { "c", code_fixture_c }, { "d", code_fixture_d },
  };

  g_assert_nonnull (exe);
  stacks_fixture_add_loaded_module (f, exe, code_fixture_main);
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    stacks_fixture_name (f, functions[i].name, 0, vaddr_of (functions[i].fn, 0));
  return f;
}

/* gui_fixture_imbalance's profile with the stacks of description. */
static MgProfile *
code_fixture_install (StacksFixture *f, const char *description)
{
  MgProfile *profile = gui_fixture_imbalance ();

  stacks_fixture_read (f, description);
  stacks_fixture_install (f, profile);
  return profile;
}

MgProfile *
code_fixture_profile (void)
{
  g_autoptr (StacksFixture) f = code_fixture_stacks ();

  return code_fixture_install (f, "process 0\n"
                                 "windows 0..0.5 0.5..1\n"
                                 "0 main+2;a+2;c+1 30\n"
                                 "0 main+2;a+1 60\n"
                                 "1 main+2;b+2;c+1 10\n"
                                 "process 1\n"
                                 "windows 0..0.5 0.5..1\n"
                                 "0 main+2;b+2;c+1 20\n"
                                 "1 main+2;a+1 40\n");
}

MgProfile *
code_fixture_chain_profile (void)
{
  g_autoptr (StacksFixture) f = code_fixture_stacks ();

  return code_fixture_install (f, "process 0\n"
                                 "windows 0..0.5 0.5..1\n"
                                 "0 d+2;main+2;b+2;a+2;c+1 75\n"
                                 "1 d+2;main+2;b+2;a+1 25\n");
}

MgProfile *
code_fixture_ties_profile (void)
{
  g_autoptr (StacksFixture) f = code_fixture_stacks ();

  return code_fixture_install (f, "process 0\n"
                                 "windows 0..0.5 0.5..1\n"
                                 "0 main+2;b+2;c+1 40\n"
                                 "0 main+2;a+2;c+1 40\n");
}

MgProfile *
code_fixture_two_lines_profile (void)
{
  g_autoptr (StacksFixture) f = code_fixture_stacks ();
  gpointer first = NULL, second = NULL;

  code_fixture_two (1, &first, &second);
  g_assert_true (first != NULL && second != NULL && first != second);
  /* The return addresses of the two calls of d. */
  stacks_fixture_name (f, "first", 0, vaddr_of (first, 0));
  stacks_fixture_name (f, "second", 0, vaddr_of (second, 0));
  /* The second call's stack first: the first address of two named is on
   * the second call's line. */
  return code_fixture_install (f, "process 0\n"
                                 "windows 0..0.5 0.5..1\n"
                                 "0 second;d+1 30\n"
                                 "0 first;d+1 10\n"
                                 "1 second;d+1 5\n"
                                 "1 first;d+1 40\n");
}

MgProfile *
code_fixture_threads_profile (void)
{
  g_autoptr (StacksFixture) f = code_fixture_stacks ();

  /* Process 0: main→a in the main thread, main→b in thread 1 and, the
   * same frames, main→a in thread 2. */
  return code_fixture_install (f, "process 0\n"
                                 "windows 0..0.5 0.5..1\n"
                                 "0 main+2;a+1 50 thread 0\n"
                                 "1 main+2;a+1 20 thread 0\n"
                                 "0 main+2;b+1 25 thread 1\n"
                                 "1 main+2;a+1 5 thread 2\n");
}

MgProfile *
code_fixture_mpi_profile (void)
{
  g_autoptr (StacksFixture) f = code_fixture_stacks ();
  guint64 wrap_vaddr, lib_vaddr;
  g_autofree char *wrap = mpi_frame_fixture_module_of ((gpointer) MPI_Barrier, 1, &wrap_vaddr);
  g_autofree char *lib = mpi_frame_fixture_module_of ((gpointer) PMPI_Barrier, 1, &lib_vaddr);

  stacks_fixture_add_loaded_module (f, wrap, (gpointer) MPI_Barrier);
  stacks_fixture_add_loaded_module (f, lib, (gpointer) PMPI_Barrier);
  stacks_fixture_name (f, "MPI_Barrier", 1, wrap_vaddr);
  return code_fixture_install (f, "process 0\n"
                                 "windows 0..0.5 0.5..1\n"
                                 "0 main+2;MPI_Barrier 30\n"
                                 "1 main+2;a+1 10\n");
}

MgProfile *
code_fixture_named_threads_profile (void)
{
  MgProfile *profile = code_fixture_threads_profile ();
  g_autoptr (GVariant) threads = g_variant_ref_sink (g_variant_new_parsed (
    "@a(iuiay) [(0, 0, 4100, b'main'), (0, 1, 4101, b'worker-3'), (0, 2, 4102, b'gamma\\351'),"
    " (1, 0, 4200, b'other')]"));
  g_assert_true (mg_profile_set_threads (profile, threads));
  return profile;
}

/* The window's Code pane once its computation is done (at most 20 s). */
MgCodeView *
code_fixture_view (MgWindow *window)
{
  GtkWidget *view = mg_window_get_code_view (window);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_assert_true (MG_IS_CODE_VIEW (view));
  mg_test_spin (20);
  while (mg_code_view_is_busy (MG_CODE_VIEW (view)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_code_view_is_busy (MG_CODE_VIEW (view)));
  return MG_CODE_VIEW (view);
}
