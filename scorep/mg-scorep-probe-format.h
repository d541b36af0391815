/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The words of metrograph-scorep-probe's output (mg-scorep-probe.c), read
 * by the front end (app/defs/mg-scorep-defs.c). */
#ifndef MG_SCOREP_PROBE_FORMAT_H
#define MG_SCOREP_PROBE_FORMAT_H

#define MG_SCOREP_PROBE_NAME "metrograph-scorep-probe"
#define MG_SCOREP_PROBE_PLUGIN "plugin"
#define MG_SCOREP_PROBE_METRIC "metric"
#define MG_SCOREP_PROBE_ERROR "error"

enum {
  MG_SCOREP_PROBE_PLUGIN_FIELDS = 5,  /* after the keyword */
  MG_SCOREP_PROBE_METRIC_FIELDS = 8,
  MG_SCOREP_PROBE_FAULT_STATUS = 2,
  MG_SCOREP_PROBE_TIMEOUT_S = 10,     /* a plugin that answers slower hangs */
};

#endif /* MG_SCOREP_PROBE_FORMAT_H */
