/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the symbols test programs share: the probe whose call sites the
 * tests resolve. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Prints "build-id HEX" for the program (read from its note, as the
 * sampler reads it), for the tests to pass back. */
void symbols_target_start (void);

/* Prints "LABEL VADDR": the ELF virtual address (pc - load bias) of the
 * call instruction that called it, which is what a sampled frame stores. */
void symbols_target_probe (const char *label);

#ifdef __cplusplus
}
#endif
