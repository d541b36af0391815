/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An empty 32-bit library, offered through LD_PRELOAD's $PLATFORM token to
 * the 32-bit programs a 64-bit one starts (sampler/mg-preload-layout.sh):
 * their loader finds a library of its class and loads it, instead of
 * refusing ours on the program's stderr. It does nothing. */
int mg_preload_stub;
