/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test implementations of the four mg_hook_* functions: they record what
 * the API passed them, and answer from variables the tests set. */
#ifndef TEST_HOOKS_H
#define TEST_HOOKS_H

#include "mg-sampler-hooks.h"

typedef struct {
  int plugin_calls;
  plugin_id_t plugin;
  int plugin_code;
  char plugin_message[1024];
  int metric_calls;
  metric_id_t metric;
  int metric_code;
  char metric_message[1024];
  const char *custom_data;        /* returned by mg_hook_custom_data */
  const char *config_metric_id;   /* the one metric with a config file */
  const char *config_env;         /* its environment variable */
} TestHooks;

extern TestHooks test_hooks;

#endif
