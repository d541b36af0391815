/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the fuzz harnesses: the input as a file that parsers taking a
 * path can open (a memfd, named by /proc/self/fd/N), without touching the
 * disk. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Fills the harness's memfd with data (created at the first call) and
 * returns its path, valid until the next call. */
const char *fuzz_input_as_file (const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
