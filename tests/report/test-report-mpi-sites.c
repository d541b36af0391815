/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's "MPI call sites that waited longest" on hand-made stacks
 * (report_fixture_profile's 3 ranks, 0.5 s interval) named by a namer of
 * the test's own: MPI waits summed per function and call site over the
 * ranks, in seconds, with the ranks; compute stacks left out; no section
 * without MPI waits. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "report-fixture.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-set.h"
#include "report/mg-report.h"

/* vaddrs in the one module: the wrapper's MPI_Barrier and MPI_Recv, the
 * return addresses of their call sites, and a compute function. */
enum { BARRIER = 0x100, BARRIER_SITE = 0x200, RECV = 0x300, RECV_SITE = 0x400, WORK = 0x500 };

static MgStackFrameName *
frame_name (const char *function, const char *file, guint line)
{
  MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
  n->function = g_strdup (function);
  n->file = g_strdup (file);
  n->line = line;
  n->label = g_strdup (function);
  return n;
}

static gboolean
name_frame (gpointer data, const char *module_path, const guint8 *build_id, gsize build_id_len,
            guint64 vaddr, GPtrArray *names)
{
  switch (vaddr)
    {
    case BARRIER:
      g_ptr_array_add (names, frame_name ("MPI_Barrier", "/src/mpi-wrap.c", 700));
      return TRUE;
    case RECV:
      g_ptr_array_add (names, frame_name ("MPI_Recv", "/src/mpi-wrap.c", 300));
      return TRUE;
    case BARRIER_SITE - 1:
      g_ptr_array_add (names, frame_name ("solve", "/src/solver.c", 42));
      return TRUE;
    case RECV_SITE - 1:
      g_ptr_array_add (names, frame_name ("exchange", "/src/halo.c", 7));
      return TRUE;
    case WORK:
      g_ptr_array_add (names, frame_name ("work", "/src/solver.c", 10));
      return TRUE;
    default:
      return FALSE;
    }
}

static GVariant *
stack (guint64 leaf, guint64 caller, guint32 flags)
{
  GVariantBuilder frames;
  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  g_variant_builder_add (&frames, "(ut)", 0u, leaf);
  g_variant_builder_add (&frames, "(ut)", 0u, caller);
  return g_variant_new ("(a(ut)u)", &frames, flags);
}

/* Process p's stacks, each counted in one window of (0, 4]. */
static GVariant *
process (gint32 p, GVariant *const *stacks, const guint32 *counts, guint n)
{
  GVariantBuilder s, c;
  const double starts[] = { 0 }, ends[] = { 4 };
  guint64 taken = 0;
  g_variant_builder_init (&s, G_VARIANT_TYPE ("a(a(ut)u)"));
  g_variant_builder_init (&c, G_VARIANT_TYPE ("a(uuu)"));
  for (guint i = 0; i < n; i++)
    {
      g_variant_builder_add_value (&s, stacks[i]);
      g_variant_builder_add (&c, "(uuu)", 0u, i, counts[i]);
      taken += counts[i];
    }
  return g_variant_new ("(ittu@a(a(ut)u)@ad@ad@a(uuu))", p, taken, (guint64) 0, 0u,
                        g_variant_builder_end (&s),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, starts, 1, sizeof (double)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, ends, 1, sizeof (double)),
                        g_variant_builder_end (&c));
}

/* Rank 0: the barrier ×10 (thread 0); rank 1: the barrier ×4 (thread 2)
 * and the receive ×6; rank 2: computing ×20, no wait. */
static MgProfile *
profile_with_waits (gboolean with_mpi)
{
  MgProfile *profile = report_fixture_profile ();
  GVariantBuilder modules, procs;
  guint32 mpi = with_mpi ? MG_STACK_MPI : 0;
  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  g_variant_builder_add (&modules, "(^ay@ay)", "/opt/mg/libmetrograph-mpi-wrap.so",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, NULL, 0, 1));
  GVariant *p0[] = { stack (BARRIER, BARRIER_SITE, mpi | 1u << MG_STACK_THREAD_SHIFT) };
  const guint32 c0[] = { 10 };
  GVariant *p1[] = { stack (BARRIER, BARRIER_SITE, mpi | 3u << MG_STACK_THREAD_SHIFT),
                     stack (RECV, RECV_SITE, mpi) };
  const guint32 c1[] = { 4, 6 };
  GVariant *p2[] = { stack (WORK, BARRIER_SITE, 0) };
  const guint32 c2[] = { 20 };
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  g_variant_builder_add_value (&procs, process (0, p0, c0, 1));
  g_variant_builder_add_value (&procs, process (1, p1, c1, 2));
  g_variant_builder_add_value (&procs, process (2, p2, c2, 1));
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                                                       g_variant_builder_end (&modules),
                                                       g_variant_builder_end (&procs)));
  g_assert_true (mg_stack_set_check_payload (profile->stacks, 3));
  return profile;
}

static const MgReportSection *
section_named (const MgReport *report, const char *heading)
{
  for (guint i = 0; i < report->sections->len; i++)
    {
      const MgReportSection *s = g_ptr_array_index (report->sections, i);
      if (g_str_equal (s->heading, heading))
        return s;
    }
  return NULL;
}

static void
test_sites (void)
{
  g_autoptr (MgProfile) profile = profile_with_waits (TRUE);
  MgStackNamer namer = { name_frame, NULL };
  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  const MgReportSection *section = section_named (report, "MPI call sites that waited longest");

  g_assert_nonnull (section);
  if (section == NULL)
    return;
  g_assert_cmpuint (section->lines->len, ==, 2);
  /* The barrier: 10 + 4 samples of 0.5 s, in ranks 0 and 1 (two
   * threads of different ordinals, one site). */
  const MgReportLine *barrier = g_ptr_array_index (section->lines, 0);
  g_assert_cmpstr (barrier->name, ==, "MPI_Barrier (solver.c:42, in solve), ranks 0, 1");
  g_assert_cmpfloat_with_epsilon (barrier->value, 7.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (barrier->bar, 1.0, 1e-9);
  const MgReportLine *recv = g_ptr_array_index (section->lines, 1);
  g_assert_cmpstr (recv->name, ==, "MPI_Recv (halo.c:7, in exchange), rank 1");
  g_assert_cmpfloat_with_epsilon (recv->value, 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (recv->bar, 3.0 / 7.0, 1e-9);
  /* After "Where the time went", whose self section has the three. */
  g_assert_true (g_ptr_array_index (report->sections, report->sections->len - 1) == section);
  g_assert_nonnull (section_named (report, "Where the time went: self"));
}

static void
test_no_waits (void)
{
  g_autoptr (MgProfile) profile = profile_with_waits (FALSE);
  MgStackNamer namer = { name_frame, NULL };
  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);

  g_assert_null (section_named (report, "MPI call sites that waited longest"));
  g_assert_nonnull (section_named (report, "Where the time went: self"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/mpi-sites/known", test_sites);
  g_test_add_func ("/report/mpi-sites/none", test_no_waits);
  return g_test_run ();
}
