#!/bin/sh
# metrograph loads GTK only to open the viewer (libmetrograph-gui.so): the
# command-line modes, a profiled run above all, never pay for it.
# Usage: test-viewer-module.sh METROGRAPH MODULE  (under a display)
set -eu
exe=$1
module=$2
if ldd "$exe" | grep -q libgtk; then
  echo "FAIL: metrograph links GTK, so every profiled run loads it"; exit 1
fi
nm -D --defined-only "$module" | grep -qw mg_gui_run ||
  { echo "FAIL: $module does not export mg_gui_run"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The viewer opens (and reports the missing file); stopped after 5 s.
status=0
timeout 5 "$exe" "$tmp/missing.mgprof" >"$tmp/out" 2>&1 || status=$?
if grep -q "cannot load the viewer" "$tmp/out" || [ "$status" -eq 127 ]; then
  echo "FAIL: the viewer did not load (exit $status):"; cat "$tmp/out"; exit 1
fi
echo "ok: the viewer loads from its module (exit $status)"
# Without a display: one line that says so and what to do, status 1 (it
# was two GTK criticals and a SIGSEGV, 139).
status=0
env -u DISPLAY -u WAYLAND_DISPLAY LC_ALL=C.UTF-8 LANGUAGE= timeout 5 "$exe" "$tmp/missing.mgprof" \
  >"$tmp/out" 2>&1 || status=$?
if [ "$status" -ne 1 ] || grep -q CRITICAL "$tmp/out" ||
   ! grep -q "^metrograph: cannot open the viewer: neither DISPLAY nor WAYLAND_DISPLAY is set (" "$tmp/out"; then
  echo "FAIL: without a display (exit $status):"; cat "$tmp/out"; exit 1
fi
status=0
env -u WAYLAND_DISPLAY DISPLAY=:987 LC_ALL=C.UTF-8 LANGUAGE= timeout 5 "$exe" "$tmp/missing.mgprof" \
  >"$tmp/out" 2>&1 || status=$?
if [ "$status" -ne 1 ] || ! grep -q "cannot connect to “:987”" "$tmp/out"; then
  echo "FAIL: with an unreachable display (exit $status):"; cat "$tmp/out"; exit 1
fi
echo "ok: without a display, one line and status 1"
