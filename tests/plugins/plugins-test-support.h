/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Support shared by the built-in metric tests and benchmark: the four
 * sampler hooks (serving customData and recording errors) and loading the
 * built plugins from <build>/plugins. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"

typedef int (*PluginsTestInitFn) (plugin_id_t plugin_id, void *data);
typedef int (*PluginsTestIntGetter) (metric_id_t id, struct timespec *t, uint64_t *out);
typedef int (*PluginsTestDoubleGetter) (metric_id_t id, struct timespec *t, double *out);

#define MG_TEST_MAX_METRICS 128

/* Sets the customData the hook returns for metric id (NULL: none). */
void plugins_test_set_custom_data (metric_id_t id, const char *custom_data);
/* The last plugin error message ("" when none) and its code; cleared by
 * plugins_test_clear_errors(). */
const char *plugins_test_plugin_error (int *code);
/* The last error message set for a metric, "" when none. */
const char *plugins_test_metric_error (metric_id_t id);
void plugins_test_clear_errors (void);

/* dlopen()s <build>/plugins/lib<name>.so; aborts the test with dlerror()
 * when it cannot. */
void *plugins_test_load_plugin (const char *name);
/* Runs the plugin's allinea_plugin_initialize(); returns its result. */
int plugins_test_init_plugin (void *plugin, plugin_id_t id);
/* A symbol of the plugin; aborts the test when missing. */
gpointer plugins_test_symbol (void *plugin, const char *name);

/* CLOCK_MONOTONIC now. */
struct timespec plugins_test_now (void);

/* This thread's CPU time, seconds. */
double plugins_test_thread_cpu_seconds (void);
/* Spins until this thread has used seconds of CPU; returns what it used. */
double plugins_test_burn_cpu (double seconds);
/* Touches size bytes of fresh anonymous memory, one fault per page. */
void plugins_test_touch_fresh_pages (size_t size);
/* How far the kernel's RSS counter, as /proc/self/statm reads it, may lag
 * behind the pages really mapped, in bytes. */
uint64_t plugins_test_rss_counter_slack (void);
/* VmRSS of /proc/self/status, in bytes. */
uint64_t plugins_test_status_rss (void);

/* A sample time for a new sampling round, at least 10 ms after the
 * previous one (plugins share what they read within 0.5 ms). */
struct timespec plugins_test_next_round_time (void);
/* Calls a getter in a new round; the test fails if it does. */
double plugins_test_call_double (void *plugin, const char *getter, metric_id_t id);
uint64_t plugins_test_call_int (void *plugin, const char *getter, metric_id_t id);

/* Why perf_event_open may be refused to this process, or NULL when it
 * must work (the tests then fail rather than skip). */
const char *plugins_test_perf_refused_reason (void);
/* Initialises the software perf plugin; FALSE (the test skipped, with the
 * reason printed) only where perf_event_open is really refused. */
gboolean plugins_test_init_perf_sw (void *sw);
/* Why symbolic event names (libpfm4) cannot be tested here, or NULL. */
const char *plugins_test_libpfm_missing_reason (void);
