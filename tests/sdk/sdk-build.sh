#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds plugins of our own with their own build files, unchanged, as the
# "Build a public plugin" sections of docs/plugin-api.md and
# docs/scorep-plugins.md say:
#   map     a MAP Makefile (map-makefile/) with ALLINEA_METRIC_PLUGIN_DIR
#           from pkg-config
#   scorep  a Score-P CMake project (scorep-cmake/) with -DSCOREP_CONFIG
#           from pkg-config; the plugin is then listed by the probe
# both against the build tree's uninstalled pkg-config files, and
#   installed  the same folders after `meson install --tags devel` into a
#           temporary DESTDIR: MAP's layout, scorep-config and its library.
# Usage: sdk-build.sh <source root> <build root> map|scorep|installed
set -eu
src="$1"
build="$2"
what="$3"
here="$src/tests/sdk"
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-sdk-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail () { echo "$*"; exit 1; }

# make with ALLINEA_METRIC_PLUGIN_DIR=$1: libcustom1.so from examples/custom1.c.
build_map () {
  mkdir -p "$work/map"
  cp "$here/map-makefile/Makefile" "$src/examples/custom1.c" "$work/map/"
  make -C "$work/map" ALLINEA_METRIC_PLUGIN_DIR="$1" CFLAGS="-O2 -Wall -Wextra -Werror" \
    >"$work/map.log" 2>&1 || { cat "$work/map.log"; fail "make failed with ALLINEA_METRIC_PLUGIN_DIR=$1"; }
  nm -D --defined-only "$work/map/libcustom1.so" | grep -q " T sample_interrupts" \
    || fail "libcustom1.so does not export sample_interrupts"
  rm -rf "$work/map"
  echo "ok: MAP Makefile with ALLINEA_METRIC_PLUGIN_DIR=$1"
}

case "$what" in
map)
  export PKG_CONFIG_PATH="$build/meson-uninstalled"
  dir=$(pkg-config --variable=allinea_metric_plugin_dir metrograph-plugin)
  [ -n "$dir" ] || fail "metrograph-plugin has no allinea_metric_plugin_dir"
  [ -f "$dir/include/allinea_metric_plugin_api.h" ] \
    || fail "$dir/include/allinea_metric_plugin_api.h does not exist"
  build_map "$dir"
  ;;
scorep)
  command -v cmake >/dev/null || { echo "cmake is not installed (scripts/install-deps)"; exit 77; }
  export PKG_CONFIG_PATH="$build/meson-uninstalled"
  config=$(pkg-config --variable=scorep_config metrograph-scorep-plugin)
  [ -x "$config" ] || fail "scorep_config '$config' is not a program"
  "$config" --version | grep -q "^Score-P 7 " || fail "scorep-config --version: $("$config" --version)"
  [ "$("$config" --prefix)" = "$build " ] || fail "scorep-config --prefix: '$("$config" --prefix)'"
  case "$("$config" --user --cppflags)" in
    *"-I$src/include "*) ;;
    *) fail "scorep-config --cppflags: $("$config" --user --cppflags)" ;;
  esac
  if "$config" --adapter-init >"$work/refused.out" 2>"$work/refused.err"; then
    fail "scorep-config answered --adapter-init"
  fi
  grep -q "not a Score-P installation" "$work/refused.err" || fail "refusal: $(cat "$work/refused.err")"
  cp -r "$here/scorep-cmake" "$work/project"
  cmake -S "$work/project" -B "$work/cmake" -DSCOREP_CONFIG="$config" >"$work/cmake.log" 2>&1 \
    || { cat "$work/cmake.log"; fail "cmake did not configure"; }
  cmake --build "$work/cmake" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "cmake --build failed"; }
  lib="$work/cmake/libsdk_plugin.so"
  [ -f "$lib" ] || fail "libsdk_plugin.so was not built"
  # The library scorep-config names adds nothing to the plugin.
  if readelf -d "$lib" | grep NEEDED | grep -q metrograph; then
    fail "the plugin needs a Metrograph library: $(readelf -d "$lib" | grep NEEDED)"
  fi
  LD_LIBRARY_PATH="$work/cmake" "$build/scorep/metrograph-scorep-probe" sdk_plugin answer \
    >"$work/probe.out" 2>&1 || { cat "$work/probe.out"; fail "the probe could not list sdk_plugin"; }
  grep -q "^metric" "$work/probe.out" && grep -q "always 42" "$work/probe.out" \
    || { cat "$work/probe.out"; fail "the probe did not list sdk_plugin's metric"; }
  echo "ok: Score-P CMake project with -DSCOREP_CONFIG=$config, listed by the probe"
  ;;
installed)
  root="$work/root"
  meson install -C "$build" --destdir "$root" --tags devel --no-rebuild --quiet >"$work/install.log" 2>&1 \
    || { cat "$work/install.log"; fail "meson install --tags devel failed"; }
  # The installed .pc files, read with their own prefix moved under DESTDIR.
  libdir=$(PKG_CONFIG_PATH="$build/meson-private" pkg-config --variable=libdir metrograph-plugin)
  prefix=$(PKG_CONFIG_PATH="$build/meson-private" pkg-config --variable=prefix metrograph-plugin)
  export PKG_CONFIG_PATH="$root$libdir/pkgconfig"
  [ -f "$PKG_CONFIG_PATH/metrograph-plugin.pc" ] || fail "no metrograph-plugin.pc in $PKG_CONFIG_PATH"
  dir=$(pkg-config --define-variable=prefix="$root$prefix" --variable=allinea_metric_plugin_dir metrograph-plugin)
  case "$dir" in "$root"/*) ;; *) fail "allinea_metric_plugin_dir $dir is not under the prefix" ;; esac
  build_map "$dir"
  config=$(pkg-config --variable=scorep_config metrograph-scorep-plugin)
  [ -x "$root$config" ] || fail "$config was not installed"
  inc=$(pkg-config --variable=scorepincludedir metrograph-scorep-plugin)
  case "$("$root$config" --user --cppflags)" in
    *"-I$inc "*) ;;
    *) fail "installed scorep-config --cppflags: $("$root$config" --user --cppflags), not -I$inc" ;;
  esac
  [ -f "$root$inc/scorep/SCOREP_MetricPlugins.h" ] || fail "no $inc/scorep/SCOREP_MetricPlugins.h"
  ldir=$("$root$config" --ldflags | sed 's/^-L//; s/ *$//')
  [ -f "$root$ldir/libmetrograph-scorep-none.a" ] || fail "no libmetrograph-scorep-none.a in $ldir"
  echo "ok: installed MAP layout in $dir, scorep-config in $config"
  ;;
*) fail "usage: $0 <source root> <build root> map|scorep|installed" ;;
esac
