/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampler's own memory beyond the record (the call stacks' tables):
 * registered where it is mapped, so that Memory leaves its resident pages
 * out of the program's and Sampler overhead shows them. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Registers [p, p + size); outside signal handlers. Weak, so that code
 * built without the sampler (the unwinder's own tests) needs none. */
void mg_own_memory_add (const void *p, size_t size) __attribute__ ((weak, visibility ("hidden")));
/* The registered memory's resident bytes (mincore). */
uint64_t mg_own_memory_resident (void) __attribute__ ((visibility ("hidden")));
