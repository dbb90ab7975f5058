#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mm/API.md from the kernel-doc comments of mm/'s public headers, and the check that keeps it so.

    tests/api/api.py write [ROOT]      writes ROOT/mm/API.md
    tests/api/api.py check [ROOT]      prints one line per check, then "N passed, N failed"
    tests/api/api.py check [ROOT] --api FILE   the same, comparing FILE instead of mm/API.md

The public headers are listed in tests/api/public_headers (a header followed by names: only those
calls of it are public, the rest is mm/'s own). In them, every function declared or defined
(static inline) and every function-like macro must follow a kernel-doc comment:

    /**
     * name() - One line saying what it does.
     * @arg: what arg is (one line per parameter, in order; a longer one continues indented).
     *
     * Anything else the caller must know, in paragraphs.
     *
     * Return: what it returns (only for a function whose type is not void).
     */

A function-like macro the header #undefs again is not a call; a second definition of a name (the
other branch of an #if) may go without a comment, the first one's then standing for it.

check fails when a call has no such comment, when the comment names another call, when its @arg
lines are not the parameters of the declaration (names and order), when a non-void function has
no Return: line or a void one has one, and when mm/API.md differs from a fresh generation.
"""
import re
import sys
from pathlib import Path


class Doc:
    """A kernel-doc comment: the name it documents, its summary, @args, body, Return: text."""

    def __init__(self, line):
        self.line = line
        self.name = None
        self.summary = ""
        self.args = []      # [(name, text)]
        self.body = []      # lines, blank lines separating paragraphs
        self.ret = None
        self.errors = []


class Decl:
    """A function or function-like macro of a header, with the comment before it (or None)."""

    def __init__(self, kind, name, params, rettype, text, line, doc):
        self.kind, self.name, self.params, self.rettype = kind, name, params, rettype
        self.text, self.line, self.doc = text, line, doc


def strip_comment_lines(lines):
    """The text of a /** ... */ or /* ... */ block, without the comment marks."""
    out = []
    for i, l in enumerate(lines):
        s = l.strip()
        if i == 0:
            s = re.sub(r"^/\*+", "", s)
        if s.endswith("*/"):
            s = s[:-2]
        s = s.rstrip()
        if s.startswith("*"):
            s = s[1:]
            s = s[1:] if s.startswith(" ") else s
        elif i:
            s = s.lstrip()
        out.append(s.rstrip())
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def parse_doc(lines, line):
    """A Doc from the lines of a /** comment."""
    doc = Doc(line)
    text = strip_comment_lines(lines)
    if not text:
        doc.errors.append("empty kernel-doc comment")
        return doc
    m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)(\(\))?\s+-\s+(\S.*)$", text[0])
    if not m:
        doc.errors.append("first line is not 'name() - summary': %r" % text[0])
        return doc
    doc.name, doc.summary = m.group(1), m.group(3)
    section = None  # "arg", "body" or "ret"
    for t in text[1:]:
        am = re.match(r"^@([A-Za-z_][A-Za-z0-9_]*|\.\.\.):\s*(.*)$", t)
        if am and section in (None, "arg"):
            doc.args.append([am.group(1), am.group(2)])
            section = "arg"
        elif am:
            doc.errors.append("@%s: after the description (the @arg lines come first)" % am.group(1))
        elif t.startswith("Return:"):
            doc.ret = t[len("Return:"):].strip()
            section = "ret"
        elif section == "arg" and t.startswith(" ") and t.strip():
            doc.args[-1][1] += " " + t.strip()
        elif section == "ret" and t.strip():
            doc.ret += " " + t.strip()
        elif section == "ret":
            doc.errors.append("text after Return: (it comes last)")
            section = "body"
        elif section in (None, "arg") and not t.strip():
            section = "body"
        elif section == "body":
            doc.body.append(t)
        else:
            doc.errors.append("a description line without a blank line after the @args: %r" % t)
            section = "body"
    while doc.body and not doc.body[0].strip():
        doc.body.pop(0)
    while doc.body and not doc.body[-1].strip():
        doc.body.pop()
    return doc


def strip_attributes(s):
    """s without __attribute__((...)) groups."""
    while True:
        i = s.find("__attribute__")
        if i < 0:
            return s
        j = s.find("(", i)
        depth = 0
        for k in range(j, len(s)):
            depth += {"(": 1, ")": -1}.get(s[k], 0)
            if depth == 0:
                break
        s = s[:i] + s[k + 1:]


def split_params(s):
    """The top-level comma-separated pieces of s."""
    parts, depth, cur = [], 0, ""
    for c in s:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur.strip())
    return parts


def param_name(p):
    """The name a parameter declaration declares: the identifier of (*name)(...) or the last one."""
    if p.strip() == "...":
        return "..."
    m = re.search(r"\(\s*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)", p)
    if m:
        return m.group(1)
    p = re.sub(r"\[[^\]]*\]", "", p)
    ids = [w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", p)]
    return ids[-1] if ids else ""


def parse_function(text):
    """(name, params, return type) of a prototype or a definition's head, or None for no function."""
    t = strip_attributes(" ".join(text.split()))
    if t.startswith("typedef") or "(" not in t:
        return None
    m = re.match(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$", t)
    if not m:
        return None
    rettype, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
    if "(" in rettype or not rettype:
        return None  # a function pointer variable or something stranger: not a call
    plist = [] if params in ("", "void") else [param_name(p) for p in split_params(params)]
    words = [w for w in rettype.split() if w not in ("static", "inline", "extern")]
    return name, plist, " ".join(words)


def parse_header(path, root):
    """(intro lines, decls, constants, errors) of one header."""
    lines = (root / path).read_text().splitlines()
    decls, consts, errors = [], [], []
    intro = None
    pending = None  # a Doc waiting for its declaration
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        s = line.strip()
        if s.startswith("/*"):
            start = i
            while "*/" not in lines[i]:
                i += 1
            block = lines[start:i + 1]
            if s.startswith("/**") and not s.startswith("/***") and s != "/**/":
                if pending:
                    errors.append("%s:%d: kernel-doc comment of %s() followed by no call" %
                                  (path, pending.line, pending.name))
                pending = parse_doc(block, start + 1)
            else:
                if intro is None and "SPDX" not in s:
                    intro = strip_comment_lines(block)
                if pending:
                    errors.append("%s:%d: kernel-doc comment of %s() followed by no call" %
                                  (path, pending.line, pending.name))
                pending = None
            i += 1
            continue
        if not s:
            if pending:
                errors.append("%s:%d: kernel-doc comment of %s() followed by a blank line" %
                              (path, pending.line, pending.name))
            pending = None
            i += 1
            continue
        if s.startswith("#"):
            start = i
            while lines[i].rstrip().endswith("\\"):
                i += 1
            text = " ".join(l.rstrip("\\").strip() for l in lines[start:i + 1])
            m = re.match(r"^#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\(([^)]*)\)\s*(.*)$", text)
            if m:
                params = [p.strip() for p in m.group(2).split(",") if p.strip()]
                decls.append(Decl("macro", m.group(1), params, None, "#define %s(%s)" %
                                  (m.group(1), ", ".join(params)), start + 1, pending))
            else:
                c = re.match(r"^#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\s+(.*?)\s*/\*\s*(.*?)\s*\*/\s*$", text)
                if c:
                    consts.append((c.group(1), c.group(2), c.group(3)))
                elif pending:
                    errors.append("%s:%d: kernel-doc comment of %s() followed by no call" %
                                  (path, pending.line, pending.name))
            pending = None
            i += 1
            continue
        # A declaration or definition: up to the ';' or '{' at depth 0.
        start, text, depth = i, "", 0
        end_char = None
        while i < n:
            for c in lines[i]:
                if c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                elif depth == 0 and c in ";{":
                    end_char = c
                    break
                text += c
            if end_char:
                break
            text += " "
            i += 1
        if end_char == "{":  # skip the body to its closing brace
            depth, j = 0, i
            k = lines[i].index("{")
            while j < n:
                seg = lines[j][k:] if j == i else lines[j]
                depth += seg.count("{") - seg.count("}")
                if depth == 0:
                    break
                j += 1
            i = j
        fn = parse_function(text)
        if fn:
            name, params, rettype = fn
            decls.append(Decl("function", name, params, rettype, " ".join(text.split()) + ";",
                              start + 1, pending))
        elif pending:
            errors.append("%s:%d: kernel-doc comment of %s() followed by no call" %
                          (path, pending.line, pending.name))
        pending = None
        i += 1
    # A macro the header #undefs again is its own scaffolding, not a call.
    undone = set(re.findall(r"^#\s*undef\s+([A-Za-z_][A-Za-z0-9_]*)", "\n".join(lines), re.M))
    decls = [d for d in decls if not (d.kind == "macro" and d.name in undone)]
    return intro or [], decls, consts, errors


def check_decl(path, d):
    """The problems of one call's documentation (empty list: none)."""
    where = "%s:%d: %s()" % (path, d.line, d.name)
    doc = d.doc
    if doc is None:
        return ["%s has no kernel-doc comment (/** %s() - ...) right before it" % (where, d.name)]
    errs = ["%s: %s" % (where, e) for e in doc.errors]
    if doc.name and doc.name != d.name:
        errs.append("%s: its kernel-doc comment is for %s()" % (where, doc.name))
    documented = [a for a, _ in doc.args]
    if documented != d.params:
        errs.append("%s: documented @args (%s) are not its parameters (%s)" %
                    (where, ", ".join(documented) or "none", ", ".join(d.params) or "none"))
    for a, t in doc.args:
        if not t.strip():
            errs.append("%s: @%s says nothing" % (where, a))
    if d.kind == "function" and d.rettype != "void" and doc.ret is None:
        errs.append("%s: returns %s but has no Return: line" % (where, d.rettype))
    if d.kind == "function" and d.rettype == "void" and doc.ret is not None:
        errs.append("%s: returns nothing but has a Return: line" % where)
    return errs


def with_first_doc(d, decls):
    """d, or for an undocumented second definition (the other branch of an #if) d with the
    first definition's comment, which then must fit it too."""
    first = next(x for x in decls if x.name == d.name)
    if d.doc is None and first is not d and first.doc is not None:
        return Decl(d.kind, d.name, d.params, d.rettype, d.text, d.line, first.doc)
    return d


def md_text(s):
    """s for Markdown prose: calls and double-underscore names in backquotes, | escaped."""
    s = re.sub(r"(?<![`\w])([A-Za-z_][A-Za-z0-9_]*\(\))", r"`\1`", s)
    s = re.sub(r"(?<![`\w])(__[A-Za-z0-9_]+)(?![`\w(])", r"`\1`", s)
    return s


def md_lines(lines):
    """Comment lines as Markdown: indented "- " items (and their deeper continuation lines) a
    list, other runs of indented lines code blocks, the rest prose."""
    out, code, item = [], False, None  # item: the indent of the list item being continued
    for l in lines:
        indent = len(l) - len(l.lstrip(" "))
        if l.lstrip().startswith("- ") and indent >= 2:
            item = indent
        elif item is not None and not (l.strip() and indent > item):
            item = None
            if l.strip():
                out.append("")  # the list ends here: the text after it is no part of its last item
        is_code = item is None and indent >= 2 and l.strip() != ""
        if is_code and not code:
            if out and out[-1] != "":
                out.append("")
            out.append("```c")
            code = True
        elif not is_code and code and l.strip():
            while out[-1] == "":
                out.pop()
            out.append("```")
            out.append("")
            code = False
        if code:
            out.append(l[2:] if l.strip() else "")
        elif item is not None:
            text = md_text(l.strip())
            if l.lstrip().startswith("- "):
                if out and out[-1] != "" and not out[-1].startswith(("- ", "  ")):
                    out.append("")
                out.append(text)
            else:
                out.append("  " + text)
        else:
            out.append(md_text(l))
    if code:
        while out and out[-1] == "":
            out.pop()
        out.append("```")
    return out


def anchor(text):
    return re.sub(r"[^a-z0-9_ -]", "", text.lower()).replace(" ", "-")


def generate(root, headers):
    out = ["<!-- SPDX-License-Identifier: MIT -->",
           "# mm/ API reference", "",
           "Generated by `make api` (`tests/api/api.py`) from the kernel-doc comments of the public",
           "headers listed in `tests/api/public_headers`; do not edit it by hand: `make test-api` fails",
           "when it differs from a fresh generation, or when a call of those headers lacks its comment.", ""]
    parsed = [(h,) + public_header(h, root, calls)[:3] for h, calls in headers]
    for h, intro, decls, _ in parsed:
        para = " ".join(l.strip() for l in (intro[:intro.index("")] if "" in intro else intro))
        first = re.split(r"(?<=[.])\s", para + " ", 1)[0].strip()
        out.append("- [`%s`](#%s): %s" % (h, anchor(h), md_text(first)))
    for h, intro, decls, consts in parsed:
        out += ["", "## %s" % h, ""]
        out += md_lines(intro)
        if consts:
            out += ["", "| constant | value | meaning |", "| --- | --- | --- |"]
            out += ["| `%s` | `%s` | %s |" % (n, v.replace("|", "\\|"), md_text(c).replace("|", "\\|"))
                    for n, v, c in consts]
        shown = set()
        for d in decls:
            if d.name in shown:
                continue  # the other branch of an #if: the first definition stands for both
            shown.add(d.name)
            doc = d.doc
            out += ["", "### %s()" % d.name, "", "```c", d.text, "```", ""]
            if doc is None:
                out.append("(undocumented)")
                continue
            out.append(md_text(doc.summary))
            if doc.args:
                out += ["", "| argument | meaning |", "| --- | --- |"]
                out += ["| `%s` | %s |" % (a, md_text(t).replace("|", "\\|")) for a, t in doc.args]
            if doc.body:
                out.append("")
                out += md_lines(doc.body)
            if doc.ret is not None:
                out += ["", "**Return:** " + md_text(doc.ret)]
    return "\n".join(out) + "\n"


def read_headers(root):
    """[(header, the calls of it that are public, or None for all)] from tests/api/public_headers."""
    lst = root / "tests/api/public_headers"
    out = []
    for l in lst.read_text().splitlines():
        words = l.split()
        if words and not words[0].startswith("#"):
            out.append((words[0], set(words[1:]) or None))
    return out


def public_header(path, root, calls):
    """parse_header() keeping only the calls given (None: all of them)."""
    intro, decls, consts, errors = parse_header(path, root)
    if calls is not None:
        missing = calls - {d.name for d in decls}
        errors = errors + ["%s: %s() is listed as public but not declared there" % (path, m)
                           for m in sorted(missing)]
        decls = [d for d in decls if d.name in calls]
        consts = []
    return intro, decls, consts, errors


def main(argv):
    if len(argv) < 2 or argv[1] not in ("write", "check"):
        print("usage: api.py write|check [ROOT] [--api FILE]")
        return 2
    args = argv[2:]
    api_file = None
    if "--api" in args:
        k = args.index("--api")
        api_file = Path(args[k + 1])
        del args[k:k + 2]
    root = Path(args[0] if args else ".")
    headers = read_headers(root)
    text = generate(root, headers)
    if argv[1] == "write":
        (root / "mm/API.md").write_text(text)
        print("mm/API.md: %d headers" % len(headers))
        return 0
    passed = failed = 0
    for h, calls in headers:
        _, decls, _, errors = public_header(h, root, calls)
        for d in decls:
            errors += check_decl(h, with_first_doc(d, decls))
        if errors:
            failed += 1
            for e in errors:
                print("api: " + e)
            print("not ok %s: %d calls, %d problems" % (h, len(decls), len(errors)))
        else:
            passed += 1
            print("ok %s: %d calls documented" % (h, len(decls)))
    api = api_file or root / "mm/API.md"
    if api.exists() and api.read_text() == text:
        passed += 1
        print("ok %s is what make api generates" % api)
    else:
        failed += 1
        print("not ok %s differs from what make api generates (run make api)" % api)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
