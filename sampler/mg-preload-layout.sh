#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Lays out DIR/preload/PLATFORM/LIBRARY for LD_PRELOAD's $PLATFORM token
# (docs/sampler.md, "Programs of the other class"): the names a 64-bit
# x86 loader gives its platform lead to LIBRARY itself, the 32-bit one's
# (i686 from the kernel, or i386 to i586) to STUB, an empty 32-bit library, so that the loader of a 32-bit
# program started by a 64-bit one finds a library of its class and says
# nothing on the program's stderr.
#   mg-preload-layout.sh DIR LIBRARY STUB [STAMP]
# STUB is relative to DIR. Run at build time (STAMP touched) and at install
# time (DIR under $DESTDIR).
set -e
dir=$DESTDIR$1
library=$2
stub=$3
for platform in x86_64 haswell xeon_phi; do
  mkdir -p "$dir/preload/$platform"
  ln -sfn "../../$library" "$dir/preload/$platform/$library"
done
for platform in i686 i586 i486 i386; do
  mkdir -p "$dir/preload/$platform"
  ln -sfn "../../$stub" "$dir/preload/$platform/$library"
done
if [ -n "$4" ]; then
  touch "$4"
fi
