/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The library libmgt_load_needs.so needs (test-load-error.c). */
int mgt_load_dep (void);
int
mgt_load_dep (void)
{
  return 1;
}
