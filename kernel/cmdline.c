/*
 * The kernel command line: finding words and key=value options, and the table of every option the
 * kernel knows (anything else is reported as unknown).
 */
#include "kernel/cmdline.h"

#include "lib/string.h"
#include "mm/types.h"

enum option_form { BARE, VALUE };

/* Every option the kernel reads, and where. */
static const struct option {
	const char *name;
	enum option_form form;
} options[] = {
	{ "bench", BARE },       /* kernel/main.c: run the page-allocator benchmark */
	{ "hugepages", VALUE },  /* mm/hugetlb.c: how many huge pages to put in the pool at boot */
	{ "hugepagesz", VALUE }, /* mm/hugetlb.c: which size the hugepages= after it is for */
	{ "ktest", VALUE },      /* kernel/main.c: which self-test suites run, or "off" */
	{ "screen", VALUE },     /* kernel/console/screen.c: screen=off */
};

/* The word at or after s (NULL when none is left), its length in *len. */
static const char *next_word(const char *s, size_t *len)
{
	if (!s)
		return NULL;
	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	for (*len = 0; s[*len] && s[*len] != ' '; (*len)++)
		;
	return s;
}

#define for_each_word(w, len, cmdline) \
	for ((w) = next_word((cmdline), &(len)); (w); (w) = next_word((w) + (len), &(len)))

/* Is the word w[0..len) "key=..." for the key of length klen? */
static bool word_has_key(const char *w, size_t len, const char *key, size_t klen)
{
	return len > klen && w[klen] == '=' && !memcmp(w, key, klen);
}

bool cmdline_has(const char *cmdline, const char *word)
{
	size_t wlen = strlen(word), len;
	const char *w;

	for_each_word(w, len, cmdline)
		if (len == wlen && !memcmp(w, word, len))
			return true;
	return false;
}

const char *cmdline_value(const char *cmdline, const char *key, size_t *len)
{
	size_t klen = strlen(key), n;
	const char *w, *value = NULL;

	*len = 0;
	for_each_word(w, n, cmdline) {
		if (word_has_key(w, n, key, klen)) {
			value = w + klen + 1;
			*len = n - klen - 1;
		}
	}
	return value;
}

bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t size)
{
	size_t len;
	const char *value = cmdline_value(cmdline, key, &len);

	if (size)
		buf[0] = '\0';
	if (!value || len >= size)
		return false;
	memcpy(buf, value, len);
	buf[len] = '\0';
	return true;
}

/* ---- known and unknown options ------------------------------------------------------------ */

bool cmdline_word_known(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		size_t nlen = strlen(options[i].name);
		if (options[i].form == BARE && len == nlen && !memcmp(s, options[i].name, len))
			return true;
		if (options[i].form == VALUE && word_has_key(s, len, options[i].name, nlen))
			return true;
	}
	return false;
}

int cmdline_warn_unknown(const char *cmdline, cmdline_warn_fn *warn)
{
	const char *w;
	size_t len;
	int n = 0;

	for_each_word(w, len, cmdline) {
		if (cmdline_word_known(w, len))
			continue;
		if (!n++)
			warn("Unknown kernel command line parameters \"");
		warn("%s%.*s", n > 1 ? " " : "", (int)len, w);
	}
	if (n)
		warn("\", will be ignored.\n");
	return n;
}
