#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/man-sections.py: turns the mdoc page swift-argument-parser's manual plugin writes into
# a conventional man page (called by scripts/man; reads the plugin's page on stdin, writes the
# page on stdout). The help texts stay the one source; this only moves and marks up what they say:
#
#   - a blank line (a paragraph break in the help) becomes .Pp;
#   - a run of indented lines (a table, an example) becomes a literal block (.Bd -literal), so
#     the man page keeps its lines instead of filling them into one paragraph;
#   - a paragraph of the root command's discussion that starts with a heading in capitals
#     (ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES, SEE ALSO) becomes that section (.Sh), in the
#     order man-pages(7) gives, instead of text inside DESCRIPTION; the plugin's own
#     EXIT STATUS (.Ex -std, "0 on success, >0 on error") gives way to ours.
import re
import sys

SECTION_ORDER = ["ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]


def literal_blocks(lines):
    """Wraps each run of indented lines in .Bd -literal/.Ed, de-indented by the run's least indent."""
    out, run = [], []

    def flush():
        if not run:
            return
        indent = min(len(l) - len(l.lstrip(" ")) for l in run if l.strip())
        if out and out[-1] == ".Pp":
            out.pop()  # .Bd starts its own paragraph; a .Pp before it is a warning
        out.append(".Bd -literal -offset indent")
        out.extend(l[indent:] for l in run)
        out.append(".Ed")
        run.clear()

    for line in lines:
        if line.startswith(" ") and line.strip():
            run.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return out


def main():
    lines = [".Pp" if l == "" else l for l in sys.stdin.read().split("\n")]
    if lines and lines[-1] == ".Pp":
        lines.pop()
    start = lines.index(".Sh DESCRIPTION") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(".Bl"))
    description, sections, current = [], {}, None
    for line in lines[start:end]:
        if line == ".Pp":
            current = None
            if description and description[-1] != ".Pp":
                description.append(line)
        elif line in SECTION_ORDER and (not description or description[-1] == ".Pp"):
            current = line
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
        else:
            description.append(line)
    while description and description[-1] == ".Pp":
        description.pop()
    rest = lines[end:]
    # The plugin's generic EXIT STATUS goes when the help states its own.
    if "EXIT STATUS" in sections and '.Sh "EXIT STATUS"' in rest:
        i = rest.index('.Sh "EXIT STATUS"')
        del rest[i:i + 2]
    authors = rest.index(".Sh AUTHORS") if ".Sh AUTHORS" in rest else len(rest)
    added = []
    for name in SECTION_ORDER:
        if name not in sections:
            continue
        body = sections[name]
        added.append(f'.Sh "{name}"' if " " in name else f".Sh {name}")
        if name == "SEE ALSO":
            # Filled text, with each name(N) as a cross reference.
            text = " ".join(l.strip() for l in body)
            for part in re.split(r"(\b[\w.-]+\(\d\))", text):
                m = re.fullmatch(r"([\w.-]+)\((\d)\)", part)
                if m:
                    added.append(f".Xr {m.group(1)} {m.group(2)}")
                elif part.strip(" ,"):
                    added.append(part.strip())
                elif part.strip():
                    added[-1] += " " + part.strip()
        else:
            added.extend(body)
    page = lines[:start] + description + rest[:authors] + added + rest[authors:]
    sys.stdout.write("\n".join(literal_blocks(page)) + "\n")


main()
