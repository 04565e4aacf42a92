/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The empty preload: a shared object with nothing in it. The startup benchmark divides the
 * cost of preloading the shim by the cost of preloading this, the least any preload can cost
 * (one more object for the loader to find, map and relocate), so the figure is what the shim
 * itself adds.
 */
