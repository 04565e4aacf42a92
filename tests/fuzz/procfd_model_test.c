/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fuzzer's comparison without libFuzzer, built with the normal compiler so that it runs
 * in every `make check`, clang or not:
 *   1. the model itself against answers written by hand (a model that agreed with a wrong
 *      classifier would make the rest worthless);
 *   2. every seed corpus file, for every caller in procfd_compare_ids[];
 *   3. PROCFD_MODEL_PATHS (default 200000) paths from a deterministic generator: valid
 *      spellings with random edits, and token soup. PROCFD_MODEL_SEED changes the seed.
 */
#include "procfd_classify.h"
#include "procfd_compare.h"
#include "procfd_model.h"
#include "tap.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>

#define CORPUS_MAX 8192
#define GEN_MAX 5000

/* The model against hand-written answers, for the caller pair each names. */
struct model_case {
	int ids; /* index into procfd_compare_ids */
	const char *path;
	enum procfd_owner owner;
	int fd;
};

#define CALLER PROCFD_CALLER
#define LEADER PROCFD_LEADER
#define NOPE PROCFD_NOT_OURS

static const struct model_case model_cases[] = {
	/* kernel-facts.md: accepted spellings (pid 100; tid 100, or 101 for ids 1) */
	{ 0, "/proc/self/fd/3", CALLER, 3 },
	{ 1, "/proc/self/fd/3", LEADER, 3 },
	{ 1, "/proc/thread-self/fd/3", CALLER, 3 },
	{ 0, "/proc/100/fd/3", CALLER, 3 },
	{ 1, "/proc/100/fd/3", LEADER, 3 },
	{ 1, "/proc/101/fd/3", CALLER, 3 },
	{ 1, "/proc/self/task/101/fd/3", CALLER, 3 },
	{ 1, "/proc/100/task/101/fd/3", CALLER, 3 },
	{ 1, "/proc/101/task/100/fd/3", LEADER, 3 },
	{ 0, "/dev/fd/7", CALLER, 7 },
	{ 1, "/dev/fd/7", LEADER, 7 },
	{ 0, "/dev/stdin", CALLER, 0 },
	{ 0, "/dev/stdout", CALLER, 1 },
	{ 1, "/dev/stderr", LEADER, 2 },
	{ 0, "//proc//self/fd/3", CALLER, 3 },
	{ 0, "/proc/./self/fd/3", CALLER, 3 },
	{ 0, "/proc/self/fd/../fd/3", CALLER, 3 },
	{ 0, "/proc/self/../self/fd/3", CALLER, 3 },
	{ 0, "/proc/self/fd/0", CALLER, 0 },
	{ 0, "/proc/self/fd/2147483647", CALLER, INT_MAX },
	/* ".." is physical */
	{ 0, "/../proc/self/fd/3", CALLER, 3 },
	{ 0, "/dev/fd/../../self/fd/3", CALLER, 3 },
	{ 0, "/dev/fd/../../../dev/stdout", CALLER, 1 },
	{ 1, "/proc/thread-self/../100/fd/3", LEADER, 3 },
	{ 1, "/proc/thread-self/../../fd/3", LEADER, 3 },
	{ 1, "/proc/self/task/101/../../fd/3", LEADER, 3 },
	{ 1, "/proc/thread-self/../../../thread-self/fd/3", CALLER, 3 },
	{ 1, "/dev/fd/../task/101/fd/3", CALLER, 3 },
	/* near misses */
	{ 0, "/proc/self/fd/03", NOPE, 0 },
	{ 0, "/proc/self/fd/+3", NOPE, 0 },
	{ 0, "/proc/self/fd/ 3", NOPE, 0 },
	{ 0, "/proc/self/fd/3/", NOPE, 0 },
	{ 0, "/proc/self/fd/3/.", NOPE, 0 },
	{ 0, "/dev/stdin/", NOPE, 0 },
	{ 0, "/proc/self/fd/2147483648", NOPE, 0 },
	{ 0, "/proc/self/fd/4294967299", NOPE, 0 },
	{ 0, "/proc/self/fd/18446744073709551619", NOPE, 0 },
	{ 0, "proc/self/fd/3", NOPE, 0 },
	{ 0, "", NOPE, 0 },
	{ 0, "/proc/self/fd", NOPE, 0 },
	{ 0, "/tmp/../proc/self/fd/3", NOPE, 0 },
	{ 0, "/proc/4242/fd/3", NOPE, 0 },
	{ 0, "/proc/4242/../self/fd/3", NOPE, 0 },
	{ 1, "/proc/self/task/4242/../101/fd/3", NOPE, 0 },
	{ 1, "/proc/thread-self/task/101/fd/3", NOPE, 0 },
	{ 1, "/proc/thread-self/../../self/fd/3", NOPE, 0 },
	{ 3, "/proc/777/fd/1", NOPE, 0 },
	{ 3, "/proc/77/task/7/fd/1", LEADER, 1 },
	{ 4, "/proc/77/task/7/fd/1", CALLER, 1 },
};

#undef CALLER
#undef LEADER
#undef NOPE

static void check_model_cases(void)
{
	size_t i;

	for (i = 0; i < sizeof(model_cases) / sizeof(model_cases[0]); i++) {
		const struct model_case *c = &model_cases[i];
		const struct procfd_compare_ids *ids = &procfd_compare_ids[c->ids];
		struct procfd_model_answer m;

		procfd_model(c->path, ids->pid, ids->tid, &m);
		if (!tap_ok(m.owner == c->owner && (m.owner == PROCFD_NOT_OURS || m.fd == c->fd),
			    "model: pid %ld tid %ld \"%s\" -> owner %d fd %d", ids->pid, ids->tid,
			    c->path, (int)c->owner, c->fd))
			tap_diag("  the model says owner %d fd %d (%s)", (int)m.owner, m.fd,
				 m.why ? m.why : "accepted");
	}
}

/* The model's own edges that a short table cannot spell: the 40-link limit and PATH_MAX. */
static void check_model_limits(void)
{
	static char path[GEN_MAX];
	struct procfd_model_answer m;
	size_t len;
	int n;

	for (n = 39; n <= 41; n++) {
		int i;

		len = (size_t)snprintf(path, sizeof(path), "/proc");
		for (i = 0; i < n - 1; i++)
			len += (size_t)snprintf(path + len, sizeof(path) - len, "/self/..");
		snprintf(path + len, sizeof(path) - len, "/self/fd/3");
		procfd_model(path, 100, 100, &m);
		/* n "self" links plus the fd link: 40 in all is the kernel's limit */
		tap_is(m.owner, n + 1 <= 40 ? PROCFD_CALLER : PROCFD_NOT_OURS,
		       "model: %d symlinks (%d x self + the fd link)", n + 1, n);
	}
	for (len = 4094; len <= 4097; len++) {
		const char *tail = "self/fd/3";

		memset(path, '/', len);
		memcpy(path, "/proc", 5);
		memcpy(path + len - strlen(tail), tail, strlen(tail));
		path[len] = '\0';
		procfd_model(path, 100, 100, &m);
		tap_is(m.owner, len < 4096 ? PROCFD_CALLER : PROCFD_NOT_OURS,
		       "model: a path of %zu bytes", len);
	}
}

static int compare_and_report(const char *path, long pid, long tid, int *shown)
{
	char msg[512];

	if (procfd_compare(path, pid, tid, msg, sizeof(msg)) == 0)
		return 0;
	if (*shown < 10) {
		printf("# pid %ld tid %ld path ", pid, tid);
		procfd_compare_print_path(stdout, path);
		printf("\n#   %s\n", msg);
		fflush(stdout);
	}
	(*shown)++;
	return -1;
}

/* Each corpus file is a fuzzer input: byte 0 picks the caller, the rest is the path up to
 * the first NUL. Replayed for the caller it names and then for every other caller. */
static void check_corpus(const char *dir)
{
	struct dirent **names;
	int n, i;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		tap_ok(0, "corpus: cannot read %s: %s", dir, strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		static char data[CORPUS_MAX + 1];
		char file[PATH_MAX];
		size_t size;
		FILE *f;
		int k, bad = 0, shown = 0;

		if (names[i]->d_name[0] == '.') {
			free(names[i]);
			continue;
		}
		if (snprintf(file, sizeof(file), "%s/%s", dir, names[i]->d_name) >=
		    (int)sizeof(file))
			file[0] = '\0'; /* fopen("") fails: reported below */
		f = fopen(file, "rb");
		size = f != NULL ? fread(data, 1, CORPUS_MAX, f) : 0;
		if (f != NULL)
			fclose(f);
		data[size] = '\0';
		if (size == 0) {
			tap_ok(0, "corpus/%s: unreadable or empty", names[i]->d_name);
			free(names[i]);
			continue;
		}
		for (k = 0; k <= PROCFD_COMPARE_NIDS; k++) {
			/* k == 0: the caller the file names; then all of them */
			const struct procfd_compare_ids *ids =
				&procfd_compare_ids[k == 0 ? (unsigned char)data[0] %
								     PROCFD_COMPARE_NIDS
							   : k - 1];

			bad += compare_and_report(data + 1, ids->pid, ids->tid, &shown) != 0;
		}
		tap_ok(bad == 0, "corpus/%s: classifier and model agree", names[i]->d_name);
		free(names[i]);
	}
	free(names);
}

/* splitmix64: small, deterministic, good enough to pick tokens. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t pick(size_t n)
{
	return (size_t)(rng() % n);
}

/* Valid spellings to start from; {P} our pid, {T} our tid, {F} an fd. */
static const char *const templates[] = {
	"proc/self/fd/{F}", "proc/thread-self/fd/{F}", "proc/{P}/fd/{F}", "proc/{T}/fd/{F}",
	"proc/self/task/{T}/fd/{F}", "proc/self/task/{P}/fd/{F}", "proc/{P}/task/{T}/fd/{F}",
	"proc/{T}/task/{P}/fd/{F}", "proc/{T}/task/{T}/fd/{F}", "dev/fd/{F}", "dev/stdin",
	"dev/stdout", "dev/stderr", "proc/thread-self/../{P}/fd/{F}",
	"proc/thread-self/../../fd/{F}", "proc/self/task/{T}/../../fd/{F}",
	"dev/fd/../task/{T}/fd/{F}", "dev/fd/../../thread-self/fd/{F}",
};

/* Names to insert or substitute: the tree's names, the walk's punctuation, the ids, and
 * near misses of each. */
static const char *const alphabet[] = {
	"proc", "self", "thread-self", "task", "fd", "dev", "stdin", "stdout", "stderr", ".",
	"..", "", "{P}", "{T}", "{F}", "0", "1", "2", "3", "7", "42", "77", "100", "101",
	"4194303", "4194304", "2147483647", "2147483648", "4294967299",
	"18446744073709551619", "03", "+3", " 3", "3 ", "-1", "0x3", "fdinfo", "tmp", "ns",
	"Self", "fd0", "selfish", "self/..", "thread-self/../..",
};

#define NALPHA (sizeof(alphabet) / sizeof(alphabet[0]))
#define MAX_TOKENS 64

/* Append one token to path, its {P}/{T}/{F} filled in. */
static size_t put_token(char *path, size_t len, const char *tok, long pid, long tid, long fd)
{
	for (; *tok != '\0' && len + 12 < GEN_MAX; tok++) {
		if (tok[0] == '{' && tok[1] != '\0' && strchr("PTF", tok[1]) != NULL &&
		    tok[2] == '}') {
			long v = tok[1] == 'P' ? pid : tok[1] == 'T' ? tid : fd;

			len += (size_t)snprintf(path + len, GEN_MAX - len, "%ld", v);
			tok += 2;
		} else {
			path[len++] = *tok;
		}
	}
	path[len] = '\0';
	return len;
}

static void generate(char *path, long pid, long tid)
{
	static const long fds[] = { 0, 1, 2, 3, 9, 10, 100, 1023, 65536, 2147483647 };
	const char *tok[MAX_TOKENS];
	char tmpl[128];
	size_t ntok = 0, len = 0, i, edits;
	long fd = fds[pick(sizeof(fds) / sizeof(fds[0]))];
	char *s;

	if (pick(4) == 0) {
		/* token soup */
		size_t n = 1 + pick(10);

		for (i = 0; i < n; i++)
			tok[ntok++] = alphabet[pick(NALPHA)];
	} else {
		/* a valid spelling, split at its slashes, then edited */
		snprintf(tmpl, sizeof(tmpl), "%s", templates[pick(sizeof(templates) /
								  sizeof(templates[0]))]);
		for (s = strtok(tmpl, "/"); s != NULL && ntok < MAX_TOKENS; s = strtok(NULL, "/"))
			tok[ntok++] = s;
		for (edits = pick(4); edits > 0; edits--) {
			size_t at = pick(ntok + 1);

			switch (pick(5)) {
			case 0: /* insert */
				if (ntok < MAX_TOKENS) {
					memmove(&tok[at + 1], &tok[at], (ntok - at) * sizeof(tok[0]));
					tok[at] = alphabet[pick(NALPHA)];
					ntok++;
				}
				break;
			case 1: /* delete */
				if (at < ntok) {
					memmove(&tok[at], &tok[at + 1],
						(ntok - at - 1) * sizeof(tok[0]));
					ntok--;
				}
				break;
			case 2: /* replace */
				if (at < ntok)
					tok[at] = alphabet[pick(NALPHA)];
				break;
			case 3: /* a detour: a name and ".." back out of it */
				if (ntok + 2 <= MAX_TOKENS) {
					memmove(&tok[at + 2], &tok[at], (ntok - at) * sizeof(tok[0]));
					tok[at] = alphabet[pick(NALPHA)];
					tok[at + 1] = "..";
					ntok += 2;
				}
				break;
			default: /* something after the end */
				if (ntok < MAX_TOKENS)
					tok[ntok++] = pick(2) ? "" : pick(2) ? "." : "..";
				break;
			}
		}
	}
	if (pick(30) != 0)
		path[len++] = '/'; /* mostly absolute */
	for (i = 0; i < ntok; i++) {
		if (i > 0)
			path[len++] = '/';
		len = put_token(path, len, tok[i], pid, tid, fd);
	}
	path[len] = '\0';

	/* Now and then, the kernel's limits: 40 symlinks, and PATH_MAX. */
	if (pick(50) == 0 && strncmp(path, "/proc/", 6) == 0) {
		size_t reps = 36 + pick(8), tail = len - 6;

		if (6 + reps * 8 + tail < GEN_MAX) {
			memmove(path + 6 + reps * 8, path + 6, tail + 1);
			for (i = 0; i < reps; i++)
				memcpy(path + 6 + i * 8, "self/../", 8);
		}
	} else if (pick(50) == 0 && len > 0 && path[0] == '/') {
		size_t want = 4090 + pick(12);

		if (want > len && want < GEN_MAX) {
			memmove(path + want - len, path, len + 1);
			memset(path, '/', want - len);
		}
	}
}

static void check_generated(unsigned long count, uint64_t seed)
{
	static char path[GEN_MAX + 64];
	unsigned long i, accepted = 0, bad = 0;
	int shown = 0;

	rng_state = seed;
	for (i = 0; i < count; i++) {
		const struct procfd_compare_ids *ids = &procfd_compare_ids[pick(PROCFD_COMPARE_NIDS)];
		struct procfd_model_answer m;

		generate(path, ids->pid, ids->tid);
		procfd_model(path, ids->pid, ids->tid, &m);
		accepted += m.owner != PROCFD_NOT_OURS;
		bad += compare_and_report(path, ids->pid, ids->tid, &shown) != 0;
	}
	tap_ok(bad == 0, "%lu generated paths (seed %llu, %lu of them ours): %lu disagreements",
	       count, (unsigned long long)seed, accepted, bad);
	/* A generator that never reached an accepted path would test nothing. */
	tap_ok(accepted > count / 20, "the generator reaches accepted spellings (%lu of %lu)",
	       accepted, count);
}

int main(void)
{
	const char *srcdir = getenv("top_srcdir");
	const char *env_count = getenv("PROCFD_MODEL_PATHS");
	const char *env_seed = getenv("PROCFD_MODEL_SEED");
	char corpus[PATH_MAX];

	check_model_cases();
	check_model_limits();
	snprintf(corpus, sizeof(corpus), "%s/tests/fuzz/corpus", srcdir ? srcdir : ".");
	check_corpus(corpus);
	check_generated(env_count ? strtoul(env_count, NULL, 10) : 200000,
			env_seed ? strtoull(env_seed, NULL, 10) : 20240611);
	tap_done();
}
