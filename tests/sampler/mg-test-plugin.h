/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The getters and callbacks of the test plugins (named in the test plans). */
#ifndef MG_TEST_PLUGIN_H
#define MG_TEST_PLUGIN_H

#include <stdint.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"

int test_start (plugin_id_t plugin_id);
int test_stop (plugin_id_t plugin_id);
int test_count (metric_id_t id, struct timespec *t, uint64_t *out);
int test_pct (metric_id_t id, struct timespec *t, double *out);
int test_busy (metric_id_t id, struct timespec *t, double *out);
int test_late (metric_id_t id, struct timespec *t, uint64_t *out);
int test_gap_untouched (metric_id_t id, struct timespec *t, uint64_t *out);
int test_gap_sentinel (metric_id_t id, struct timespec *t, uint64_t *out);
int test_gap_nan (metric_id_t id, struct timespec *t, double *out);
int test_gap_error (metric_id_t id, struct timespec *t, uint64_t *out);
int test_ramp (metric_id_t id, struct timespec *t, uint64_t *out);
int test_tenth (metric_id_t id, struct timespec *t, double *out);
int test_backfill (metric_id_t id, struct timespec *t, uint64_t *out);
int test_backfill_bad (metric_id_t id, struct timespec *t, uint64_t *out);
int test_custom (metric_id_t id, struct timespec *t, uint64_t *out);
int test_config (metric_id_t id, struct timespec *t, uint64_t *out);
int test_node (metric_id_t id, struct timespec *t, uint64_t *out);
int marker_value (metric_id_t id, struct timespec *t, uint64_t *out);
int faulty_crash (metric_id_t id, struct timespec *t, uint64_t *out);
int faulty_hang (metric_id_t id, struct timespec *t, uint64_t *out);
int faulty_block (metric_id_t id, struct timespec *t, uint64_t *out);
int faulty_block_slow (metric_id_t id, struct timespec *t, uint64_t *out);
int faulty_start (plugin_id_t plugin_id);

#endif /* MG_TEST_PLUGIN_H */
