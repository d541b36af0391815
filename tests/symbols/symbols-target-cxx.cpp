// SPDX-License-Identifier: GPL-3.0-or-later
// A C++ program with a class template in a namespace, for tests/symbols:
// the names come back demangled, the inlined template function included.
#include "symbols-target-probe.h"

namespace metrograph_test {

template <typename T>
inline __attribute__ ((always_inline)) T
scaled (T value)
{
  symbols_target_probe ("cxx-inlined"); // MARK:scaled-call
  return value * 3;
}

template <typename T>
class Accumulator
{
public:
  __attribute__ ((noinline)) void
  add (T value)
  {
    total += scaled (value); // MARK:add-call
  }
  volatile T total{};
};

} // namespace metrograph_test

int
main ()
{
  metrograph_test::Accumulator<int> sum;

  symbols_target_start ();
  sum.add (2);
  return sum.total == 6 ? 0 : 1;
}
