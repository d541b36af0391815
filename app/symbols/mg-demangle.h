/* SPDX-License-Identifier: GPL-3.0-or-later */
/* C++ names as people read them ("ns::Box<int>::put(int)"), through the
 * demangler of libstdc++, which the toolchain that built the program
 * ships. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The demangled form of NAME when it is a mangled C++ (Itanium ABI) name,
 * otherwise a copy of NAME. */
char *mg_demangle (const char *name);

G_END_DECLS
