"""Times the whole `tropa plan --fen F` (zones, checks, text) over the bench positions.

Usage: python3 scripts/plan_time.py BINARY [BINARY ...]

The positions are read from src/cli/bench.rs. Each binary answers each position twice, the
binaries alternating, so that a change in the machine's load falls on all of them alike; per
position the median of the two runs, then the median and the worst over the positions, in CPU
time (user + system of the process) and in wall time.
"""
import os, re, subprocess, sys, time, statistics
src = open(os.path.join(os.path.dirname(__file__), '..', 'src', 'cli', 'bench.rs')).read()
fens = re.findall(r'"([rnbqkpRNBQKP1-8/]+ [wb] [-KQkq]+ [-a-h1-8]+ \d+ \d+)"', src)
bins = sys.argv[1:]
res = {b: {'cpu': [], 'wall': []} for b in bins}
for fen in fens:
    per = {b: ([], []) for b in bins}
    for r in range(2):
        for b in (bins if r % 2 == 0 else bins[::-1]):
            t = time.time()
            p = subprocess.Popen([b, 'plan', '--fen', fen], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, ru = os.wait4(p.pid, 0)
            per[b][0].append(ru.ru_utime + ru.ru_stime); per[b][1].append(time.time() - t)
    for b in bins:
        res[b]['cpu'].append(statistics.median(per[b][0])); res[b]['wall'].append(statistics.median(per[b][1]))
print(f"{len(fens)} positions")
for b in bins:
    c, w = res[b]['cpu'], res[b]['wall']
    print(f"{b}: cpu median {statistics.median(c):.3f} s max {max(c):.3f} s; wall median {statistics.median(w):.3f} s max {max(w):.3f} s")
