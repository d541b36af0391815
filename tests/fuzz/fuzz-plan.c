/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run plan parser of the sampler (sampler/mg-plan.c, libc only): any
 * bytes as the plan file. A parsed plan is queried as the sampler does. */
#include <stdlib.h>
#include <string.h>

#include "fuzz-input.h"
#include "mg-plan.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  MgPlan plan;
  char err[512];

  err[0] = '\0';
  if (mg_plan_load (fuzz_input_as_file (data, size), &plan, err, sizeof err) != 0)
    {
      /* Every refusal names the line. */
      if (strchr (err, ':') == NULL)
        abort ();
      return 0;
    }
  for (size_t m = 0; m < plan.n_metrics; m++)
    if (plan.metrics[m].source >= plan.n_sources)
      abort ();
  mg_plan_skips (&plan, "/usr/bin/mpirun");
  mg_plan_selects_rank (&plan, 3);
  mg_plan_clear (&plan);
  return 0;
}
