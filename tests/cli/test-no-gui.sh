#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A build without GTK (-Dgui=disabled, e.g. for cluster nodes) configures,
# builds metrograph without libgtk, and says clearly that it has no viewer.
# Usage: test-no-gui.sh SOURCE_ROOT
set -eu
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

meson setup "$tmp/build" "$src" -Dgui=disabled --werror >"$tmp/setup.log" 2>&1 ||
  { cat "$tmp/setup.log"; echo "FAIL: meson setup -Dgui=disabled"; exit 1; }
ninja -C "$tmp/build" app/cli/metrograph >"$tmp/build.log" 2>&1 ||
  { tail -40 "$tmp/build.log"; echo "FAIL: building metrograph without GTK"; exit 1; }
exe="$tmp/build/app/cli/metrograph"
if ldd "$exe" | grep -q libgtk; then
  echo "FAIL: metrograph built with -Dgui=disabled links GTK"; exit 1
fi
status=0
"$exe" some.mgprof >"$tmp/out" 2>&1 || status=$?
if [ "$status" -ne 2 ] || ! grep -q "this build has no viewer" "$tmp/out"; then
  echo "FAIL: opening a profile without a viewer: exit $status, said:"; cat "$tmp/out"; exit 1
fi
"$exe" --help >"$tmp/help" 2>&1 || { echo "FAIL: --help"; cat "$tmp/help"; exit 1; }
grep -q -- "--profile" "$tmp/help" || { echo "FAIL: --help lacks --profile"; exit 1; }
echo "ok: -Dgui=disabled builds a command-line-only metrograph"
