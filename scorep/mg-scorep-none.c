/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libmetrograph-scorep-none.a: what scorep-config --libs names. The
 * FindScorep.cmake of Score-P's plugins requires a library to link; an
 * archive whose one member nothing refers to adds nothing to a plugin
 * (no code, no DT_NEEDED). */
__attribute__((visibility("hidden"))) const char mg_scorep_none[] = "metrograph";
