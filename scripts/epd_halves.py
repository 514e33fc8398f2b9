#!/usr/bin/env python3
"""The fixed rule that splits a set of EPD records into a tuning half and a validation half, and a
command that writes each record's half into the file as `c5`.

    python3 scripts/epd_halves.py FILE.epd [--check]

A record is validation when the first byte of the SHA-256 of its four EPD fields (placement,
side to move, castling, en passant, as the file writes them, joined by single spaces) is odd,
else tuning: the position alone decides, never a measurement, so the halves of a set are known
before anything is run on it. The combination set's builder (`combination_set.py`) uses the
same rule for the records it was not tuned on. The command adds `c5 "tuning";` or
`c5 "validation";` to each record that has no `c5` (comments and blank lines kept, the file
rewritten atomically), and prints the count of each half; a record whose `c5` names another half
than the rule's is kept as it is and counted (a set's records tuned on before the split are
tuning whatever the rule says). With `--check` it writes nothing and fails when a record lacks
`c5`. Only the standard library is needed.
"""

import argparse
import hashlib
import re
import sys

from atomic_file import write_atomically

HALF = re.compile(r'\bc5\s+"([^"]*)"')


def half_of(epd4):
    """The half of a record by its four EPD fields alone: "validation" or "tuning"."""
    return "validation" if hashlib.sha256(epd4.encode("utf-8")).digest()[0] & 1 else "tuning"


def split_line(line):
    """(the line with its half, the half, whether the rule gave it) for an EPD record; None for a
    comment or a blank line."""
    text = line.rstrip("\n")
    if not text.strip() or text.lstrip().startswith("#"):
        return None
    fields = text.split()
    if len(fields) < 4:
        raise ValueError(f"not an EPD record: {text!r}")
    rule = half_of(" ".join(fields[:4]))
    found = HALF.search(text)
    if found:
        return text, found.group(1), found.group(1) == rule
    sep = "" if text.rstrip().endswith(";") or len(fields) == 4 else ";"
    return f'{text.rstrip()}{sep} c5 "{rule}";', rule, True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="the EPD file")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail when a record has no c5")
    args = ap.parse_args()
    try:
        with open(args.file, encoding="utf-8") as fh:
            lines = fh.readlines()
    except OSError as e:
        sys.exit(f"epd_halves: {e}")
    out, counts, missing, other = [], {}, 0, 0
    for number, line in enumerate(lines, 1):
        try:
            split = split_line(line)
        except ValueError as e:
            sys.exit(f"epd_halves: {args.file}:{number}: {e}")
        if split is None:
            out.append(line.rstrip("\n"))
            continue
        text, half, by_rule = split
        missing += text != line.rstrip("\n")
        other += not by_rule
        counts[half] = counts.get(half, 0) + 1
        out.append(text)
    if args.check:
        if missing:
            sys.exit(f"epd_halves: {args.file}: {missing} records without c5")
    elif missing:
        write_atomically(args.file, ("\n".join(out) + "\n").encode("utf-8"))
    summary = ", ".join(f"{h} {n}" for h, n in sorted(counts.items()))
    print(f"{args.file}: {summary}; {missing} halves written, {other} kept against the rule")


if __name__ == "__main__":
    main()
