/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer harness: the classifier against the reference model.
 *
 * Input: byte 0 picks the caller (procfd_compare_ids[byte % 8]: leaders and other threads, so
 * both CALLER and LEADER answers are reachable); the rest is the path, cut at the first NUL
 * as a C caller would see it. Any disagreement aborts, which libFuzzer reports as a crash
 * and saves as an artifact.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined by tests/fuzz/local.mk.
 */
#include "procfd_compare.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct procfd_compare_ids *ids;
	char msg[512];
	char *path;

	if (size == 0)
		return 0;
	ids = &procfd_compare_ids[data[0] % PROCFD_COMPARE_NIDS];
	/* A buffer of exactly the path's size, so that ASan sees any read past its NUL. */
	path = malloc(size);
	if (path == NULL)
		abort();
	memcpy(path, data + 1, size - 1);
	path[size - 1] = '\0';
	if (procfd_compare(path, ids->pid, ids->tid, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "\nprocfd_fuzz: DISAGREEMENT for pid %ld tid %ld, path ", ids->pid,
			ids->tid);
		procfd_compare_print_path(stderr, path);
		fprintf(stderr, "\nprocfd_fuzz: %s\n", msg);
		abort();
	}
	free(path);
	return 0;
}
