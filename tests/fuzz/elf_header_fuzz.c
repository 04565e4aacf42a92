/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer harness: the ELF header reader of the flinkshim command (shim/command/elf_static.c). The
 * command runs it on the first bytes of whatever file a user asks it to start, so no bytes may
 * make it read out of bounds, crash, or report a loader name that the file does not hold.
 *
 * Input: byte 0 picks the size of the output buffer (0 to 255), the rest is the file's head.
 * Both are copied into heap buffers of exactly their size, so that ASan sees any access past
 * either. A broken invariant aborts, which libFuzzer reports and saves as an artifact.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined by tests/fuzz/local.mk.
 */
#include "elf_static.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what, const char *out)
{
	fprintf(stderr, "\nelf_header_fuzz: %s (interpreter \"%s\")\n", what, out != NULL ? out : "");
	abort();
}

/* Does name, followed by its NUL, occur in head? The reader may only copy what is there. */
static int occurs_with_nul(const unsigned char *head, size_t len, const char *name)
{
	size_t n = strlen(name) + 1;
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(head + i, name, n) == 0)
			return 1;
	return 0;
}

static void check_libc(const char *name)
{
	const char *libc = elf_loader_libc(name);

	if (libc != NULL && strcmp(libc, "glibc") != 0 && strcmp(libc, "musl") != 0)
		broken("elf_loader_libc names neither glibc nor musl", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *head;
	char *out, *raw;
	size_t len, outsz;
	enum elf_kind kind;
	struct elf_arch arch;

	if (size == 0)
		return 0;
	outsz = data[0];
	len = size - 1;
	head = malloc(len > 0 ? len : 1);
	out = malloc(outsz > 0 ? outsz : 1);
	raw = malloc(size);
	if (head == NULL || out == NULL || raw == NULL)
		abort();
	memcpy(head, data + 1, len);
	/* A known byte everywhere: a reader that wrote past the NUL, or nothing, would show. */
	memset(out, 'Z', outsz > 0 ? outsz : 1);

	kind = elf_interp(head, len, out, outsz, &arch);
	/*
	 * With outsz 0 there is no room even for the NUL, so the reader may not write at all. ASan
	 * cannot tell: its malloc(0) hands out a usable byte, as does our 1-byte buffer, so the
	 * byte is checked (a copy of elf_interp() with an unconditional out[0] = '\0' passed a
	 * minute of fuzzing without this).
	 */
	if (outsz == 0 && out[0] != 'Z')
		broken("a write into an output buffer of size 0", NULL);
	if (kind != ELF_NOT_ELF && kind != ELF_DYNAMIC && kind != ELF_STATIC)
		broken("elf_interp returns no kind at all", NULL);
	if (elf_classify(head, len) != kind)
		broken("elf_classify and elf_interp disagree", NULL);
	/* The class and machine are the header's own bytes, and nothing for a file that is not
	 * ELF. */
	if (kind == ELF_NOT_ELF ? arch.elf_class != 0 || arch.data != 0 || arch.machine != 0
				: len < 20 || arch.elf_class != head[4] || arch.data != head[5] ||
					  arch.machine != (arch.data == 2 ? head[18] << 8 | head[19]
									  : head[19] << 8 | head[18]))
		broken("the class or machine reported is not the header's", NULL);
	if (kind != ELF_NOT_ELF && arch.elf_class != 1 && arch.elf_class != 2)
		broken("an ELF class other than 32 or 64 bits", NULL);
	if (outsz > 0) {
		if (memchr(out, '\0', outsz) == NULL)
			broken("the interpreter is not NUL-terminated within its buffer", NULL);
		if (kind != ELF_DYNAMIC && out[0] != '\0')
			broken("a name for a program that has no PT_INTERP", out);
		if (out[0] != '\0' && !occurs_with_nul(head, len, out))
			broken("a name that the file does not hold", out);
		check_libc(out);
	}

	/* The loader-name reader, on anything at all. */
	memcpy(raw, data + 1, len);
	raw[len] = '\0';
	check_libc(raw);

	free(head);
	free(out);
	free(raw);
	return 0;
}
