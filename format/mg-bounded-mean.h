/* The one home of "the mean of values known to lie between min and max",
 * used wherever samples are combined: the sampler halving a full record,
 * the merge, the profile's grid, the graph's columns and the selection's
 * figures. A weighted sum divided by its weight is off by a rounding error
 * or two even when every value is the same (7 * 0.3 + 7 * 0.7 is not 7.0
 * exactly), so the result is brought back into [min, max]: equal values
 * give exactly that value, and a standard deviation of 0.
 * Header-only and libc-only, like the rest of format/. */
#ifndef MG_BOUNDED_MEAN_H
#define MG_BOUNDED_MEAN_H

#include <math.h>

/* weighted_sum / weight, within [min, max]. NaN bounds bound nothing. */
static inline double
mg_bounded_mean (double weighted_sum, double weight, double min, double max)
{
  if (min == max)
    return min;
  double mean = weighted_sum / weight;
  if (mean < min)
    return min;
  if (mean > max)
    return max;
  return mean;
}

/* The standard deviation from a variance var of values in [min, max]:
 * exactly 0 when they are all equal, whatever rounding left in var. */
static inline double
mg_bounded_stddev (double var, double min, double max)
{
  if (min == max || !(var > 0))
    return 0;
  return sqrt (var);
}

#endif /* MG_BOUNDED_MEAN_H */
