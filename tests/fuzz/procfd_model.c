/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The reference model: the kernel's path walk done as text rewriting.
 *
 * The unread rest of the path is a string. Each name is looked up, as a whole location
 * ("proc/100/task/101"), in a table of what exists. A directory is entered; a symlink is
 * replaced, in the text, by its body (an absolute body restarts at /, a relative one is read
 * from the link's directory), exactly what the kernel's pick_link() does; ".." drops the last
 * name of the location, so it is physical: /proc/self/.. is /proc, because "self" was never
 * part of the location, only the "100" its body named.
 *
 * Only the numbers the caller can vouch for exist: its pid and its tid. Any other number may
 * be another process, a thread that unshared its table, or nothing (ENOENT), so a walk that
 * passes through one, even to leave it with "..", is not ours.
 *
 * Kernel limits, measured with linkat(AT_FDCWD, path, ..., AT_SYMLINK_FOLLOW) on Linux 6.18:
 * a path of 4096 bytes or more is ENAMETOOLONG (getname()); at most 40 symlinks are followed
 * in one lookup, the final /proc/<id>/fd/<n> magic link included: "/proc/" + 38 x "self/../"
 * + "self/fd/N" (40 links) links, one more "self/../" is ELOOP. /dev/fd costs 2 (itself and
 * the /proc/self in its body), /dev/stdin 3.
 */
#include "procfd_model.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define MODEL_PATH_MAX 4096
#define MODEL_MAX_LINKS 40

/* Every name in the tree is shorter: "thread-self" has 11 bytes, a number at most 10. */
#define MODEL_NAME_MAX 16
/* The deepest directory: proc/<id>/task/<id>/fd. */
#define MODEL_DEPTH 5
/* The rest of the path grows by at most one link body (< 32 bytes) per followed link. */
#define MODEL_TEXT_MAX (MODEL_PATH_MAX + (MODEL_MAX_LINKS + 1) * 32)

enum node_kind {
	NODE_DIR,
	NODE_LINK, /* an ordinary symlink: body is its text */
	NODE_FD    /* a /proc/<id>/fd/<n> magic link: the end of every accepted walk */
};

struct node {
	/* Names separated by '/'. "#" is a number that is our pid or our tid (the only ids
	 * whose directories certainly exist and are ours); "N" is any number procfs parses. */
	const char *where;
	enum node_kind kind;
	const char *body; /* NODE_LINK: "%P" stands for our pid, "%T" for our tid */
	unsigned dev_link;
};

/* Everything that exists, for this model. /dev's links are the ones udev and container
 * runtimes create (the interposer checks them with readlink before trusting a spelling). */
static const struct node tree[] = {
	{ "dev", NODE_DIR, NULL, 0 },
	{ "dev/fd", NODE_LINK, "/proc/self/fd", 1u << PROCFD_VIA_DEV_FD },
	{ "dev/stdin", NODE_LINK, "/proc/self/fd/0", 1u << PROCFD_VIA_DEV_STDIN },
	{ "dev/stdout", NODE_LINK, "/proc/self/fd/1", 1u << PROCFD_VIA_DEV_STDOUT },
	{ "dev/stderr", NODE_LINK, "/proc/self/fd/2", 1u << PROCFD_VIA_DEV_STDERR },
	{ "proc", NODE_DIR, NULL, 0 },
	{ "proc/self", NODE_LINK, "%P", 0 },
	{ "proc/thread-self", NODE_LINK, "%P/task/%T", 0 },
	{ "proc/#", NODE_DIR, NULL, 0 },
	{ "proc/#/fd", NODE_DIR, NULL, 0 },
	{ "proc/#/fd/N", NODE_FD, NULL, 0 },
	{ "proc/#/task", NODE_DIR, NULL, 0 },
	/* task/ of any thread of ours lists every thread of ours, the pid and the tid alike */
	{ "proc/#/task/#", NODE_DIR, NULL, 0 },
	{ "proc/#/task/#/fd", NODE_DIR, NULL, 0 },
	{ "proc/#/task/#/fd/N", NODE_FD, NULL, 0 },
};

/* procfs's name_to_int(), restated as a round trip: a name is a number when printing its
 * value gives the name back (so no sign, space, leading zero or "0x"), and only values up
 * to INT_MAX can be a pid, a tid or an fd. Returns the value, or -1. */
static long name_value(const char *name)
{
	char again[MODEL_NAME_MAX];
	unsigned long long v = 0;
	const char *p;

	if (strlen(name) > 10 || strspn(name, "0123456789") != strlen(name) || *name == '\0')
		return -1;
	for (p = name; *p != '\0'; p++)
		v = v * 10 + (unsigned long long)(*p - '0');
	if (v > (unsigned long long)INT_MAX)
		return -1;
	snprintf(again, sizeof(again), "%llu", v);
	return strcmp(again, name) == 0 ? (long)v : -1;
}

static int name_matches(const char *pattern, size_t plen, const char *name, long pid, long tid)
{
	long v;

	if (plen == 1 && (pattern[0] == '#' || pattern[0] == 'N')) {
		v = name_value(name);
		if (v < 0)
			return 0;
		return pattern[0] == 'N' || v == pid || v == tid;
	}
	return strlen(name) == plen && strncmp(pattern, name, plen) == 0;
}

/* Does the location loc[0..depth-1] followed by name match where? */
static int location_matches(const char *where, char loc[][MODEL_NAME_MAX], int depth,
			    const char *name, long pid, long tid)
{
	const char *p = where;
	int i;

	for (i = 0; i <= depth; i++) {
		const char *n = i < depth ? loc[i] : name;
		size_t plen = strcspn(p, "/");

		if (plen == 0 || !name_matches(p, plen, n, pid, tid))
			return 0;
		p += plen;
		if (*p == '/')
			p++;
		else if (i < depth)
			return 0; /* the pattern is shorter than the location */
	}
	return *p == '\0';
}

static const struct node *lookup(char loc[][MODEL_NAME_MAX], int depth, const char *name,
				 long pid, long tid)
{
	size_t i;

	for (i = 0; i < sizeof(tree) / sizeof(tree[0]); i++)
		if (location_matches(tree[i].where, loc, depth, name, pid, tid))
			return &tree[i];
	return NULL;
}

/* Write a link body with the ids filled in. */
static void expand_body(const char *body, long pid, long tid, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	for (; *body != '\0'; body++) {
		if (body[0] == '%' && (body[1] == 'P' || body[1] == 'T')) {
			o += (size_t)snprintf(out + o, size - o, "%ld", body[1] == 'P' ? pid : tid);
			body++;
		} else if (o + 1 < size) {
			out[o++] = *body;
			out[o] = '\0';
		}
	}
}

/* The walk. Returns NULL and fills out->owner and out->fd when the path ends on one of our
 * magic links; otherwise why not. */
static const char *walk(const char *path, long pid, long tid, struct procfd_model_answer *out)
{
	static const char dot[] = ".", dotdot[] = "..";
	char text[MODEL_TEXT_MAX];
	char loc[MODEL_DEPTH][MODEL_NAME_MAX];
	int depth = 0;
	const char *rest;

	if (path == NULL)
		return "no path";
	if (path[0] != '/')
		return "relative: resolved against olddirfd, not ours to judge";
	if (strlen(path) >= MODEL_PATH_MAX)
		return "ENAMETOOLONG: 4096 bytes or more";
	strcpy(text, path);
	rest = text;

	for (;;) {
		char name[MODEL_NAME_MAX];
		const struct node *node;
		size_t len;

		rest += strspn(rest, "/");
		if (*rest == '\0')
			return "the walk ends on a directory";
		len = strcspn(rest, "/");
		if (len >= MODEL_NAME_MAX)
			return "a name the model does not have";
		memcpy(name, rest, len);
		name[len] = '\0';
		rest += len;

		if (strcmp(name, dot) == 0)
			continue;
		if (strcmp(name, dotdot) == 0) {
			if (depth > 0)
				depth--; /* and /.. is / */
			continue;
		}
		node = lookup(loc, depth, name, pid, tid);
		if (node == NULL)
			return "a name the model does not have (or a number not ours)";

		if (node->kind == NODE_DIR) {
			if (depth == MODEL_DEPTH)
				return "model error: too deep";
			strcpy(loc[depth++], name);
			continue;
		}
		if (++out->links > MODEL_MAX_LINKS)
			return "ELOOP: more than 40 symlinks";
		if (node->kind == NODE_LINK) {
			char body[32];
			size_t blen, rlen;

			out->dev_links |= node->dev_link;
			expand_body(node->body, pid, tid, body, sizeof(body));
			blen = strlen(body);
			rlen = strlen(rest);
			if (blen + rlen >= sizeof(text))
				return "model error: text overflow";
			/* The body replaces the link's name; the link's directory stays the
			 * location (a relative body is read from there), / for an absolute one. */
			memmove(text + blen, rest, rlen + 1);
			memcpy(text, body, blen);
			rest = text;
			if (body[0] == '/')
				depth = 0;
			continue;
		}
		/* NODE_FD: a magic link to the file, not a directory. Anything after it, even a
		 * lone slash or "/.", asks to walk into it: ENOTDIR (or some other file). */
		if (*rest != '\0')
			return "something follows the /proc/<id>/fd/<n> link";
		out->fd = (int)name_value(name);
		/* loc is proc/<id>/fd or proc/<id>/task/<id>/fd: the table is the thread named
		 * last. Our tid first: for the leader pid == tid, and that is the caller. */
		out->owner = name_value(loc[depth - 2]) == tid ? PROCFD_CALLER : PROCFD_LEADER;
		return NULL;
	}
}

void procfd_model(const char *path, long pid, long tid, struct procfd_model_answer *out)
{
	out->owner = PROCFD_NOT_OURS;
	out->fd = -1;
	out->dev_links = 0;
	out->links = 0;
	out->why = walk(path, pid, tid, out);
	if (out->why != NULL) {
		out->owner = PROCFD_NOT_OURS;
		out->fd = -1;
	}
}
