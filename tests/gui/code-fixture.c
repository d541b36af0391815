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

/* A stack, innermost first: the leaf inside its function, the callers'
 * return addresses two bytes in (named one byte earlier), sampled in
 * thread ordinal (-1: not known). */
static GVariant *
stack_of_thread (guint n, gpointer const *fns, int thread)
{
  GVariantBuilder frames;
  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  for (guint i = 0; i < n; i++)
    g_variant_builder_add (&frames, "(ut)", 0u, vaddr_of (fns[i], i == 0 ? 1 : 2));
  return g_variant_new ("(a(ut)u)", &frames, (guint32) (thread + 1) << MG_STACK_THREAD_SHIFT);
}

static GVariant *
stack (guint n, gpointer const *fns)
{
  GVariantBuilder frames;
  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  for (guint i = 0; i < n; i++)
    g_variant_builder_add (&frames, "(ut)", 0u, vaddr_of (fns[i], i == 0 ? 1 : 2));
  return g_variant_new ("(a(ut)u)", &frames, 0u);
}

static GVariant *
process (gint32 index, GVariant *const *stacks, guint n_stacks, const guint32 (*counts)[3],
         guint n_counts)
{
  GVariantBuilder s, c;
  const double starts[] = { 0, 0.5 }, ends[] = { 0.5, 1.0 };
  guint64 taken = 0;

  g_variant_builder_init (&s, G_VARIANT_TYPE ("a(a(ut)u)"));
  for (guint i = 0; i < n_stacks; i++)
    g_variant_builder_add_value (&s, stacks[i]);
  g_variant_builder_init (&c, G_VARIANT_TYPE ("a(uuu)"));
  for (guint i = 0; i < n_counts; i++)
    {
      g_variant_builder_add (&c, "(uuu)", counts[i][0], counts[i][1], counts[i][2]);
      taken += counts[i][2];
    }
  return g_variant_new ("(ittu@a(a(ut)u)@ad@ad@a(uuu))", index, taken, (guint64) 0, 0u,
                        g_variant_builder_end (&s),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, starts, 2, sizeof (double)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, ends, 2, sizeof (double)),
                        g_variant_builder_end (&c));
}

/* The profile's stacks member made of these modules and processes, checked
 * as the loader checks one (the fixture's metrics have 4 windows). */
static void
install_stacks (MgProfile *profile, GVariantBuilder *modules, GVariantBuilder *procs)
{
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                                                       g_variant_builder_end (modules),
                                                       g_variant_builder_end (procs)));
  g_assert_true (mg_stack_set_check_payload (profile->stacks, 4));
}

MgProfile *
code_fixture_profile (void)
{
  MgProfile *profile = gui_fixture_imbalance ();
  gpointer const mac[] = { code_fixture_c, code_fixture_a, code_fixture_main };
  gpointer const mbc[] = { code_fixture_c, code_fixture_b, code_fixture_main };
  gpointer const ma[] = { code_fixture_a, code_fixture_main };
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  GVariantBuilder modules, procs;

  g_assert_nonnull (exe);
  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  g_variant_builder_add (&modules, "(^ay@ay)", exe,
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, NULL, 0, 1));

  /* Stacks of a process are its own indices. */
  GVariant *p0_stacks[] = { stack (3, mac), stack (2, ma), stack (3, mbc) };
  const guint32 p0_counts[][3] = { { 0, 0, 30 }, { 0, 1, 60 }, { 1, 2, 10 } };
  GVariant *p1_stacks[] = { stack (3, mbc), stack (2, ma) };
  const guint32 p1_counts[][3] = { { 0, 0, 20 }, { 1, 1, 40 } };

  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  g_variant_builder_add_value (&procs, process (0, p0_stacks, 3, p0_counts, 3));
  g_variant_builder_add_value (&procs, process (1, p1_stacks, 2, p1_counts, 2));
  install_stacks (profile, &modules, &procs);
  return profile;
}

MgProfile *
code_fixture_two_lines_profile (void)
{
  MgProfile *profile = gui_fixture_imbalance ();
  gpointer first = NULL, second = NULL;
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  GVariantBuilder modules, procs, d_second, d_first;

  code_fixture_two (1, &first, &second);
  g_assert_nonnull (exe);
  g_assert_true (first != NULL && second != NULL && first != second);
  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  g_variant_builder_add (&modules, "(^ay@ay)", exe,
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, NULL, 0, 1));
  /* The second call's stack first: the first address of two named is on
   * the second call's line. */
  g_variant_builder_init (&d_second, G_VARIANT_TYPE ("a(ut)"));
  g_variant_builder_add (&d_second, "(ut)", 0u, vaddr_of (code_fixture_d, 1));
  g_variant_builder_add (&d_second, "(ut)", 0u, vaddr_of (second, 0));
  g_variant_builder_init (&d_first, G_VARIANT_TYPE ("a(ut)"));
  g_variant_builder_add (&d_first, "(ut)", 0u, vaddr_of (code_fixture_d, 1));
  g_variant_builder_add (&d_first, "(ut)", 0u, vaddr_of (first, 0));
  GVariant *stacks[] = { g_variant_new ("(a(ut)u)", &d_second, 0u),
                         g_variant_new ("(a(ut)u)", &d_first, 0u) };
  const guint32 counts[][3] = { { 0, 0, 30 }, { 0, 1, 10 }, { 1, 0, 5 }, { 1, 1, 40 } };
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  g_variant_builder_add_value (&procs, process (0, stacks, 2, counts, 4));
  install_stacks (profile, &modules, &procs);
  return profile;
}

MgProfile *
code_fixture_threads_profile (void)
{
  MgProfile *profile = gui_fixture_imbalance ();
  gpointer const ma[] = { code_fixture_a, code_fixture_main };
  gpointer const mb[] = { code_fixture_b, code_fixture_main };
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  GVariantBuilder modules, procs;

  g_assert_nonnull (exe);
  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  g_variant_builder_add (&modules, "(^ay@ay)", exe,
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, NULL, 0, 1));
  /* Process 0: main→a in the main thread, main→b in thread 1 and, the
   * same frames, main→a in thread 2. */
  GVariant *stacks[] = { stack_of_thread (2, ma, 0), stack_of_thread (2, mb, 1),
                         stack_of_thread (2, ma, 2) };
  const guint32 counts[][3] = { { 0, 0, 50 }, { 1, 0, 20 }, { 0, 1, 25 }, { 1, 2, 5 } };
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  g_variant_builder_add_value (&procs, process (0, stacks, 3, counts, 4));
  install_stacks (profile, &modules, &procs);
  return profile;
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

MgProfile *
code_fixture_mpi_profile (void)
{
  MgProfile *profile = gui_fixture_imbalance ();
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  guint64 wrap_vaddr, lib_vaddr;
  g_autofree char *wrap = mpi_frame_fixture_module_of ((gpointer) MPI_Barrier, 1, &wrap_vaddr);
  g_autofree char *lib = mpi_frame_fixture_module_of ((gpointer) PMPI_Barrier, 1, &lib_vaddr);
  GVariantBuilder modules, procs, frames;
  const char *paths[] = { exe, wrap, lib };

  g_assert_nonnull (exe);
  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_variant_builder_add (&modules, "(^ay@ay)", paths[i],
                           g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, NULL, 0, 1));
  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  g_variant_builder_add (&frames, "(ut)", 1u, wrap_vaddr);
  g_variant_builder_add (&frames, "(ut)", 0u, vaddr_of (code_fixture_main, 2));
  gpointer const ma[] = { code_fixture_a, code_fixture_main };
  GVariant *stacks[] = { g_variant_new ("(a(ut)u)", &frames, 0u), stack (2, ma) };
  const guint32 counts[][3] = { { 0, 0, 30 }, { 1, 1, 10 } };
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  g_variant_builder_add_value (&procs, process (0, stacks, 2, counts, 2));
  install_stacks (profile, &modules, &procs);
  return profile;
}
