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
#include "stacks-fixture.h"
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

/* Rank 0: the barrier ×10 (thread 0); rank 1: the barrier ×4 (thread 2)
 * and the receive ×6; rank 2: computing ×20, no wait. */
static MgProfile *
profile_with_waits (gboolean with_mpi)
{
  MgProfile *profile = report_fixture_profile ();
  const char *mpi = with_mpi ? "mpi" : "";
  g_autofree char *description = g_strdup_printf (
    "module /opt/mg/libmetrograph-mpi-wrap.so\n"
    "process 0\n"
    "windows 0..4\n"
    "0 %#x;%#x 10 thread 0 %s\n"
    "process 1\n"
    "windows 0..4\n"
    "0 %#x;%#x 4 thread 2 %s\n"
    "0 %#x;%#x 6 %s\n"
    "process 2\n"
    "windows 0..4\n"
    "0 %#x;%#x 20\n",
    BARRIER_SITE, BARRIER, mpi, BARRIER_SITE, BARRIER, mpi, RECV_SITE, RECV, mpi, BARRIER_SITE,
    WORK);

  stacks_fixture_set (profile, description);
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
