/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Linked statically on purpose: the wrapper must notice that a preload cannot reach it. */
int main(void)
{
	return 0;
}
