#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The build tree's uninstalled metrograph-scorep-plugin.pc (what `meson
# devenv` gives a plugin author) makes <scorep/SCOREP_MetricPlugins.h>
# resolve, in C and in C++.
# Usage: pc-compile.sh <build root> <C compiler> [<C++ compiler>]
set -eu
export PKG_CONFIG_PATH="$1/meson-uninstalled"
cflags=$(pkg-config --cflags metrograph-scorep-plugin)
[ -n "$cflags" ] || { echo "metrograph-scorep-plugin-uninstalled.pc gives no Cflags"; exit 1; }
unit='#include <scorep/SCOREP_MetricPlugins.h>
SCOREP_Metric_Plugin_Info info = { .plugin_version = SCOREP_METRIC_PLUGIN_VERSION };'
# shellcheck disable=SC2086
printf '%s\n' "$unit" | "$2" $cflags -Wall -Werror -x c -fsyntax-only - || {
  echo "C: <scorep/SCOREP_MetricPlugins.h> does not compile with '$cflags'"; exit 1; }
if [ $# -ge 3 ]; then
  # shellcheck disable=SC2086
  printf '%s\n' '#include <scorep/SCOREP_MetricPlugins.h>' 'SCOREP_Metric_Plugin_Info info {};' \
    | "$3" $cflags -Wall -Werror -x c++ -fsyntax-only - || {
    echo "C++: <scorep/SCOREP_MetricPlugins.h> does not compile with '$cflags'"; exit 1; }
fi
echo "ok: $cflags"
