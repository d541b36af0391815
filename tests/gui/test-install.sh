#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What `meson install` leaves behind for the desktop: data/meson.build (the
# real one, with everything it installs) in a project of its own, installed
# into a temporary prefix. Builds nothing but data/, so it takes seconds and
# never touches the system.
#
#   1. with DESTDIR, the post-install steps are skipped (packagers run them),
#      and the report's built-in sections are installed;
#   2. into a prefix, they run: compiled schemas, the MIME database knows
#      *.mgprof (with the translated comment), the desktop files' MIME cache
#      names the viewer, and the icon cache exists.
#
# Usage: test-install.sh SOURCE_ROOT MESON
set -eu

src=$1
meson=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mg-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The project: data/ and the translations merged into the desktop files.
mkdir -p "$tmp/src/data" "$tmp/src/po"
cp -R "$src/data/meson.build" "$src/data/icons" "$src/data/reports" "$tmp/src/data/"
cp "$src"/data/*.in "$src"/data/*.xml "$tmp/src/data/"
cp "$src"/po/LINGUAS "$src"/po/*.po "$tmp/src/po/"
cat > "$tmp/src/meson.build" <<'EOF'
project('metrograph-install-check', meson_version: '>= 1.0')
datadir = get_option('prefix') / get_option('datadir')
subdir('data')
EOF

prefix=$tmp/prefix
"$meson" setup "$tmp/build" "$tmp/src" --prefix="$prefix" > "$tmp/setup.log" 2>&1 \
  || { cat "$tmp/setup.log" >&2; fail "meson setup"; }

# 1. DESTDIR: installed, post-install skipped.
"$meson" install -C "$tmp/build" --destdir "$tmp/dest" > "$tmp/destdir.log" 2>&1 \
  || { cat "$tmp/destdir.log" >&2; fail "meson install --destdir"; }
schemas=share/glib-2.0/schemas
[ -f "$tmp/dest$prefix/$schemas/org.metrograph.Metrograph.gschema.xml" ] \
  || fail "the schema was not installed under DESTDIR"
[ ! -e "$tmp/dest$prefix/$schemas/gschemas.compiled" ] \
  || fail "glib-compile-schemas ran although DESTDIR was set"
[ ! -e "$tmp/dest$prefix/share/mime/globs2" ] \
  || fail "update-mime-database ran although DESTDIR was set"
for report in 10-cpu 20-mpi 30-io 40-memory 50-energy; do
  [ -f "$tmp/dest$prefix/share/metrograph/reports/$report.xml" ] \
    || fail "the report section $report.xml was not installed"
done
grep -q "Skipping custom install script because DESTDIR is set" "$tmp/destdir.log" \
  || fail "meson did not say it skipped the post-install steps"

# 2. A real install into the prefix: every post-install step ran.
"$meson" install -C "$tmp/build" > "$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; fail "meson install"; }
[ -s "$prefix/$schemas/gschemas.compiled" ] || fail "no $schemas/gschemas.compiled"
GSETTINGS_SCHEMA_DIR="$prefix/$schemas" gsettings list-keys org.metrograph.Metrograph \
  | grep -qx "auto-zoom-vertical" || fail "the compiled schema lacks org.metrograph.Metrograph"
grep -qx "application/x-metrograph-profile:\*\.mgprof" "$prefix/share/mime/globs" \
  || fail "share/mime/globs does not map *.mgprof"
[ -f "$prefix/share/mime/application/x-metrograph-profile.xml" ] \
  || fail "update-mime-database wrote no application/x-metrograph-profile.xml"
grep -q "<comment>Metrograph profile</comment>" \
  "$prefix/share/mime/application/x-metrograph-profile.xml" \
  || fail "the MIME type's comment is missing"
grep -q "^application/x-metrograph-profile=org.metrograph.Metrograph.desktop;" \
  "$prefix/share/applications/mimeinfo.cache" \
  || fail "share/applications/mimeinfo.cache does not name the viewer"
[ -s "$prefix/share/icons/hicolor/icon-theme.cache" ] || fail "no hicolor/icon-theme.cache"
[ -f "$prefix/share/metainfo/org.metrograph.Metrograph.metainfo.xml" ] || fail "no metainfo"

echo "ok: DESTDIR install skipped the post-install steps; the prefix install ran them"
