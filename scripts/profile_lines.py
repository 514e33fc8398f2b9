#!/usr/bin/env python3
"""Where a function spends its instructions: a callgrind profile summed by source line and by
machine instruction.

`callgrind_annotate` gives a function's cost by source line only where the compiler kept its
lines apart; in an optimised build most of a hot function is code inlined from elsewhere and
code the compiler moved, so its lines mislead (in the move picker, the move generator's set-up
was counted under `loop {` because it had been hoisted to the top of `next`). This script reads
the cost of every instruction of the functions whose names match a pattern (the profile must be
made with `--dump-instr=yes`), disassembles them with `objdump -dl` and prints the source lines
and the single instructions that cost the most, each with the instructions it ran.

  CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release --target-dir /tmp/prof
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg /tmp/prof/release/tropa bench
  python3 scripts/profile_lines.py cg /tmp/prof/release/tropa 'MovePicker::next$'

Only a function's own instructions are counted (what `callgrind_annotate --inclusive=no`
counts), not those of the functions it calls.
"""

import argparse
import collections
import os
import re
import subprocess
import sys


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def step(token, previous):
    """A position field of a cost line: absolute, relative to the previous one (+N, -N) or the
    same (*), as callgrind's subposition compression writes them."""
    if token == "*":
        return previous
    if token[0] in "+-":
        return previous + int(token, 0)
    return int(token, 0)


def compressed_name(line, table):
    """The name a `key=(id) name` or `key=(id)` line stands for (callgrind's name compression),
    recording a definition in `table`; a line without an id names itself."""
    value = line.split("=", 1)[1]
    m = re.match(r"\((\d+)\)(?: (.*))?$", value)
    if not m:
        return value
    if m.group(2):
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), "")


def instruction_costs(path, pattern):
    """Exclusive cost of each instruction address of the profiled program's functions whose
    name matches `pattern`, from a callgrind output file made with `--dump-instr=yes` (a
    library's addresses are of another space, so its functions are left out)."""
    names = {}
    costs = collections.Counter()
    fields = None
    current = ""
    program = None
    objects = {}
    current_object = ""
    position = [0, 0]
    call_cost_next = False
    try:
        matcher = re.compile(pattern)
    except re.error as err:
        fail(f"bad pattern {pattern!r}: {err}")
    try:
        lines = open(path, encoding="utf-8", errors="replace")
    except OSError as err:
        fail(f"cannot read {path}: {err.strerror}")
    no_addresses = f"{path} has no instruction addresses: profile with --dump-instr=yes"
    with lines:
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\n")
            if line.startswith("cmd:") and line.split()[1:]:
                program = os.path.basename(line.split()[1])
                continue
            if line.startswith("positions:"):
                fields = line.split(":", 1)[1].split()
                if not fields or fields[0] != "instr":
                    fail(no_addresses)
                continue
            if line.startswith(("ob=", "cob=")):
                name = compressed_name(line, objects)
                if line.startswith("ob="):
                    current_object = name
                continue
            if line.startswith(("fn=", "cfn=", "jfn=")):
                # The three share one table of compressed names.
                name = compressed_name(line, names)
                if line.startswith("fn="):
                    current = name
                continue
            if line.startswith("calls="):
                call_cost_next = True
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            if fields is None:
                fail(no_addresses)
            parts = line.split()
            try:
                for i in range(min(len(fields), 2, len(parts))):
                    position[i] = step(parts[i], position[i])
                if call_cost_next:
                    # The inclusive cost of a call, not this function's own.
                    call_cost_next = False
                    continue
                ours = program is None or os.path.basename(current_object) == program
                if ours and len(parts) > len(fields) and matcher.search(current):
                    costs[position[0]] += int(parts[len(fields)])
            except ValueError:
                fail(f"{path}:{number}: not a cost line: {line}")
    return costs


def disassembly(objdump, binary, first, last):
    """(address, source "file:line", instruction text) for each instruction of `binary` from
    `first` to `last` inclusive."""
    command = [objdump, "-d", "-l", "-C", "--no-show-raw-insn",
               f"--start-address={first:#x}", f"--stop-address={last + 1:#x}", binary]
    try:
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    except OSError as err:
        fail(f"cannot run {objdump} (binutils): {err.strerror}")
    except subprocess.CalledProcessError as err:
        fail(f"{objdump} failed on {binary}: {err.stderr.strip()}")
    source = "?"
    rows = []
    for line in out.splitlines():
        if line.startswith("/") and re.search(r":\d+", line):
            source = "/".join(line.split(" ")[0].split("/")[-3:])
            continue
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)$", line)
        if m:
            rows.append((int(m.group(1), 16), source, m.group(2).strip()))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", help="callgrind output made with --dump-instr=yes")
    parser.add_argument("binary", help="the binary profiled, built with line tables")
    parser.add_argument("function", help="regular expression matching the function names")
    parser.add_argument("--top", type=int, default=25, help="lines and instructions shown")
    parser.add_argument("--objdump", default="objdump", help="the disassembler to run")
    args = parser.parse_args()
    costs = instruction_costs(args.profile, args.function)
    if not costs:
        fail(f"no instruction of the profiled program's functions matching {args.function!r} "
             f"in {args.profile}")
    rows = disassembly(args.objdump, args.binary, min(costs), max(costs))
    if not rows:
        fail(f"{args.binary} has no instructions at {min(costs):#x}..{max(costs):#x}")
    total = sum(costs.values())
    by_line = collections.Counter()
    for address, source, _ in rows:
        by_line[source] += costs.get(address, 0)
    print(f"{total:,} instructions run in functions matching {args.function!r}")
    print("\nby source line:")
    for source, cost in by_line.most_common(args.top):
        if cost == 0:
            break
        print(f"{cost:>15,} {100 * cost / total:5.1f} %  {source}")
    print("\nby instruction:")
    hottest = sorted(rows, key=lambda row: -costs.get(row[0], 0))[: args.top]
    for address, source, text in hottest:
        print(f"{costs.get(address, 0):>15,}  {address:x}  {source:32s} {text}")


if __name__ == "__main__":
    main()
