/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profiles of known shape for the viewer's tests and benchmark, built with
 * MgProfileBuilder. */
#pragma once

#include "profile/mg-profile-builder.h"

G_BEGIN_DECLS

/* A time-domain metric definition; colour may be NULL (type colour). */
MgMetricDef *gui_fixture_def (const char *id, const char *name, const char *units,
                              MgMetricType type, const char *colour);
MgMetricGroup *gui_fixture_group (const char *id, const char *name, const char *description,
                                  const char *const *refs);

/* 1 process, "cpu" (%, group "CPU Time") and "rss" (B, group "Memory"):
 * cpu = 50 + 40 sin, rss rises from 100 MiB to 199 MiB over 100 windows of
 * 10 ms. */
MgProfile *gui_fixture_single (void);
/* 4 processes (ranks 0-3) of metric "work" (%, group "Compute"): rank r
 * holds 20 + 20 r in every window, 100 windows of 10 ms. */
MgProfile *gui_fixture_imbalance (void);
/* "gappy" (colour #1a5fb4): a value in windows 0-49, none in 50-99. */
MgProfile *gui_fixture_gaps (void);
/* 2 processes; a plugin error, a metric error and process 1 SIGNALLED (9)
 * at 0.5 s. */
MgProfile *gui_fixture_errors (void);
/* 2 processes (no ranks); energy declined in process 0 (code 0,
 * GUI_FIXTURE_NO_RAPL), MPI declined in both (code 0, "MPI: not an MPI
 * program (…)"), and the plugin papi failed in process 1 (code -3). */
#define GUI_FIXTURE_NO_RAPL "Energy: no RAPL: /sys/class/powercap does not exist (load it with 'modprobe intel_rapl_common')"
MgProfile *gui_fixture_absent (void);
/* 4 ranks (pids 600-603): rank 1 crashed (SIGSEGV) at 0.3 s, rank 2 killed
 * (SIGKILL) at 0.5 s, rank 3 ended without a trace at 0.7 s, rank 0 stopped
 * recording ("No space left on device", errno 28) at 0.8 s and exited 0; a
 * plugin error of rank 0 (papi, code -3) and one of the front end (a
 * damaged record). */
MgProfile *gui_fixture_events (void);
/* Groups: Default (cpu, rss), CPU Time (cpu, user), Memory (rss), Energy
 * (power, not recorded: a metric error says "RAPL counters are not
 * readable") and "custom" in no group; plus a single value "mem_node". */
MgProfile *gui_fixture_groups (void);
/* n_processes x n_metrics x n_samples of smooth noise (benchmark). */
/* A plugin failed everywhere: its metric (group "Energy") has a series of
 * gaps only and a plugin error (GUI_FIXTURE_NO_RAPL, code -1); "CPU Time"
 * has one metric with values ("cpu") and one without ("spare", displayed
 * as "spare_cpu"). */
MgProfile *gui_fixture_failed_plugin (void);
MgProfile *gui_fixture_large (guint n_processes, guint n_metrics, guint n_samples);

G_END_DECLS

G_BEGIN_DECLS
/* A realistic run for screenshots: 8 MPI ranks over 12 s, CPU time, memory,
 * I/O and MPI (MPI time, call duration, sent) groups, a Default group (CPU
 * time, memory, read rate) and an Energy group not recorded. */
MgProfile *gui_fixture_demo (void);
G_END_DECLS
