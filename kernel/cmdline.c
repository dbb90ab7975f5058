/* Looking up options on the kernel command line. */
#include "kernel/cmdline.h"

#include "lib/string.h"

/* Length of the word starting at s (up to a space or the end). */
static size_t word_len(const char *s)
{
	size_t n = 0;
	while (s[n] && s[n] != ' ')
		n++;
	return n;
}

bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	bool found = false;

	for (const char *w = cmdline; *w; ) {
		size_t n = word_len(w);
		if (n >= klen && !strncmp(w, key, klen) && (n == klen || w[klen] == '=')) {
			const char *val = n == klen ? w + n : w + klen + 1;
			size_t vlen = (size_t)(w + n - val);
			if (len) {
				size_t c = vlen < len - 1 ? vlen : len - 1;
				memcpy(buf, val, c);
				buf[c] = '\0';
			}
			found = true;
		}
		w += n;
		while (*w == ' ')
			w++;
	}
	return found;
}

bool cmdline_has(const char *cmdline, const char *key)
{
	return cmdline_get(cmdline, key, NULL, 0);
}
