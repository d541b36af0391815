// SPDX-License-Identifier: GPL-3.0-or-later
// The header test as C++ (header-complete.c).
#include "header-complete.c"
