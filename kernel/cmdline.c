/* SPDX-License-Identifier: MIT */
/*
 * The kernel command line: finding words and key=value options, telling the options registered
 * with CMDLINE_OPTION() from unknown words, and the options read here: nosmp, nr_cpus= and
 * page_owner=.
 */
#include "kernel/cmdline.h"

#include "lib/printk.h"
#include "lib/string.h"
#include "mm/types.h"

/* The options registered with CMDLINE_OPTION() (the linker makes these two symbols). */
extern const struct cmdline_option *const __start_cmdline_options[];
extern const struct cmdline_option *const __stop_cmdline_options[];

CMDLINE_OPTION(nosmp, "nosmp", CMDLINE_BARE);       /* cmdline_cpu_limit(): the boot CPU alone */
CMDLINE_OPTION(nr_cpus, "nr_cpus", CMDLINE_VALUE);  /* cmdline_cpu_limit(): at most this many CPUs */
CMDLINE_OPTION(page_owner, "page_owner", CMDLINE_VALUE); /* cmdline_page_owner(): on records owners */

const char *cmdline_next_word(const char *s, size_t *len)
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

/* Is the word w[0..len) "key=..." for the key of length klen? */
bool cmdline_word_has_key(const char *w, size_t len, const char *key, size_t klen)
{
	return len > klen && w[klen] == '=' && !memcmp(w, key, klen);
}

bool cmdline_has(const char *cmdline, const char *word)
{
	size_t wlen = strlen(word), len;
	const char *w;

	cmdline_for_each_word(w, len, cmdline)
		if (len == wlen && !memcmp(w, word, len))
			return true;
	return false;
}

const char *cmdline_value(const char *cmdline, const char *key, size_t *len)
{
	size_t klen = strlen(key), n;
	const char *w, *value = NULL;

	*len = 0;
	cmdline_for_each_word(w, n, cmdline) {
		if (cmdline_word_has_key(w, n, key, klen)) {
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
	for (const struct cmdline_option *const *o = __start_cmdline_options; o < __stop_cmdline_options; o++) {
		size_t nlen = strlen((*o)->name);
		if ((*o)->form == CMDLINE_BARE && len == nlen && !memcmp(s, (*o)->name, len))
			return true;
		if ((*o)->form == CMDLINE_VALUE && cmdline_word_has_key(s, len, (*o)->name, nlen))
			return true;
	}
	return false;
}

int cmdline_warn_unknown(const char *cmdline, cmdline_warn_fn *warn)
{
	const char *w;
	size_t len;
	int n = 0;

	cmdline_for_each_word(w, len, cmdline) {
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

/* ---- numbers, nosmp and nr_cpus= ------------------------------------------------------------------- */


bool cmdline_parse_ulong(const char *s, size_t len, unsigned long *out)
{
	unsigned long v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');
		if (d > 9 || v > (~0UL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

unsigned int cmdline_cpu_limit(const char *cmdline, cmdline_warn_fn *warn)
{
	unsigned int limit = cmdline_has(cmdline, "nosmp") ? 1 : CMDLINE_NO_CPU_LIMIT;
	unsigned long n;
	size_t len;
	const char *v = cmdline_value(cmdline, "nr_cpus", &len);

	if (!v)
		return limit;
	if (!cmdline_parse_ulong(v, len, &n) || n == 0) {
		warn("smp: ignoring nr_cpus=%.*s: not a number of CPUs (1 or more)\n", (int)len, v);
		return limit;
	}
	return n < limit ? (unsigned int)n : limit;
}

/* ---- page_owner= ------------------------------------------------------------------------- */

bool cmdline_page_owner(const char *cmdline, cmdline_warn_fn *warn)
{
	size_t len;
	const char *v = cmdline_value(cmdline, "page_owner", &len);

	if (!v || (len == 3 && !memcmp(v, "off", 3)))
		return false;
	if (len == 2 && !memcmp(v, "on", 2))
		return true;
	warn("page_owner: ignoring page_owner=%.*s: say on or off\n", (int)len, v);
	return false;
}
