/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The program the startup benchmark spawns: dynamic (so the loader runs and honours
 * LD_PRELOAD) and doing nothing else, so that what a preload adds is not lost in its work.
 */
int main(void)
{
	return 0;
}
