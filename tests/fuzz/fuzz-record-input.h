/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record harnesses' input: a record whose seqlock counter is odd is
 * being rewritten, and the reader retries it with a 1 ms pause each time;
 * the copy made here has it even, so that the fuzzer measures the parser
 * rather than the pauses (the retry itself is tested in tests/profile). */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Writes the adjusted input to the harness's file and returns its path. */
const char *fuzz_record_input (const uint8_t *data, size_t size);
/* The adjusted bytes of the last call. */
const char *fuzz_record_input_data (void);
