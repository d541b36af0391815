#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds a copy of examples/ with its Makefile, as a plugin author would,
# with warnings fatal, then installs it into a temporary ALLINEA_CONFIG_DIR.
# Usage: examples-make.sh <source root> [<build root>]
# With a build root, the headers come from the build tree's uninstalled
# pkg-config file (what `meson devenv` gives), as the Makefile finds it.
set -eu
src="$1"
api_include="API_INCLUDE=$src/include"
if [ $# -ge 2 ]; then
  export PKG_CONFIG_PATH="$2/meson-uninstalled"
  cflags=$(pkg-config --cflags metrograph-plugin)
  case " $cflags " in
    *" -I$src/include "*) ;;
    *) echo "metrograph-plugin-uninstalled.pc gives Cflags '$cflags', not -I$src/include"; exit 1 ;;
  esac
  api_include=""
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-examples-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$src"/examples/Makefile "$src"/examples/*.c "$src"/examples/*.xml "$work"/
cd "$work"
# shellcheck disable=SC2086
if ! make $api_include CFLAGS="-O2 -Wall -Wextra -Werror" >make.log 2>&1; then
  echo "make failed:"; cat make.log; exit 1
fi
if grep -qi "warning" make.log; then
  echo "make printed warnings:"; cat make.log; exit 1
fi
for lib in libcustom1.so libbackfill1.so; do
  [ -f "$lib" ] || { echo "$lib was not built"; exit 1; }
  # A plugin resolves the API from the profiler: it must reference the
  # allinea_* functions it uses as undefined symbols, not carry them.
  if nm -D --defined-only "$lib" | grep -q " T allinea_safe_"; then
    echo "$lib defines API functions itself"; exit 1
  fi
done
nm -D --undefined-only libcustom1.so | grep -q allinea_safe_read_line || {
  echo "libcustom1.so does not use allinea_safe_read_line"; exit 1; }
nm -D --defined-only libcustom1.so | grep -q " T sample_interrupts" || {
  echo "libcustom1.so does not export sample_interrupts"; exit 1; }
make install ALLINEA_CONFIG_DIR="$work/config" >install.log 2>&1 || {
  echo "make install failed:"; cat install.log; exit 1; }
for f in map/metrics/libcustom1.so map/metrics/custom1.xml map/metrics/libbackfill1.so \
         map/metrics/backfill1.xml perf-report/reports/report.xml; do
  [ -f "$work/config/$f" ] || { echo "make install did not create $f"; exit 1; }
done
echo "examples build and install cleanly"
