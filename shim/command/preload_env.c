/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"
#include "preload_env.h"

#include <string.h>

int preload_is_separator(char c)
{
#ifdef __GLIBC__
	return c == ':' || c == ' ';
#else
	return c == ':' || c == ' ' || (c >= '\t' && c <= '\r');
#endif
}

/* Any copy of the shim, whatever its directory or version suffix. */
static int is_shim(const char *entry, size_t len)
{
	static const char name[] = "libflinkshim.so";
	size_t base = len;

	while (base > 0 && entry[base - 1] != '/')
		base--;
	return len - base >= sizeof(name) - 1 &&
	       memcmp(entry + base, name, sizeof(name) - 1) == 0 &&
	       (len - base == sizeof(name) - 1 || entry[base + sizeof(name) - 1] == '.');
}

static int append(char *out, size_t outsz, size_t *pos, const char *s, size_t len)
{
	if (len >= outsz - *pos)
		return -1;
	memcpy(out + *pos, s, len);
	*pos += len;
	out[*pos] = '\0';
	return 0;
}

size_t preload_compose(const char *lib, const char *existing, char *out, size_t outsz)
{
	size_t pos = 0;
	const char *p = existing;

	if (outsz == 0 || append(out, outsz, &pos, lib, strlen(lib)) != 0)
		return (size_t)-1;
	while (p != NULL && *p != '\0') {
		const char *entry;
		size_t len;

		while (preload_is_separator(*p))
			p++;
		entry = p;
		while (*p != '\0' && !preload_is_separator(*p))
			p++;
		len = (size_t)(p - entry);
		if (len == 0 || is_shim(entry, len))
			continue;
		if (append(out, outsz, &pos, ":", 1) != 0 || append(out, outsz, &pos, entry, len) != 0)
			return (size_t)-1;
	}
	return pos;
}
