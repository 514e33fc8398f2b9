#!/usr/bin/env python3
"""Cut the games a `tropa datagen` run has added since its last chunk into a new compressed chunk
under data/selfplay/, and record it in data/selfplay/MANIFEST.tsv; or rebuild a run's file from
its chunks so that `tropa datagen` can resume it.

Design note: a chunk is itself a valid data file (the run's header, then whole frames),
so the trainer and `tropa datagen-stats` read each chunk on its own, and the frames of a run's
chunks concatenated after one header are the run's file again. The cut is made at the last whole
frame whose checksum holds (a generator still writing leaves a torn tail, which waits for the
next chunk). The manifest row records where in the run's file the chunk ends, so the next cut
starts there. Files are written to a temporary name and renamed.

  python3 scripts/selfplay_chunk.py [--folder F] cut RUN.dg --commit HASH [--note TEXT]
  python3 scripts/selfplay_chunk.py [--folder F] restore RUN_NAME OUT.dg
"""

import argparse
import csv
import hashlib
import lzma
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ["chunk", "sha256", "bytes", "run", "run_end", "engine_commit", "nodes", "seed",
           "games", "plies", "quiet_positions", "note"]
# Header bytes by format version (version 2 adds the evaluation the games were played with).
HEADERS = {1: 24, 2: 32}
FRAME_HEADER = 12
MAGIC = b"TropaDG\0"
MAX_CHUNK = 20 * 1000 * 1000


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def header_len(data, path):
    """Bytes of the header of the data file image `data` (read from `path`)."""
    if len(data) < 10 or data[:8] != MAGIC:
        sys.exit(f"selfplay_chunk: {path} is not a tropa datagen file")
    version = struct.unpack_from("<H", data, 8)[0]
    if version not in HEADERS or len(data) < HEADERS[version]:
        sys.exit(f"selfplay_chunk: {path}: data format version {version} or a short header")
    return HEADERS[version]


def intact_end(data, start):
    """Byte offset after the last whole, checksummed frame from `start` on."""
    at = start
    while at + FRAME_HEADER <= len(data):
        length, checksum = struct.unpack_from("<IQ", data, at)
        end = at + FRAME_HEADER + length
        if end > len(data) or fnv1a64(data[at + FRAME_HEADER:end]) != checksum:
            break
        at = end
    return at


def manifest_path(folder):
    return os.path.join(folder, "MANIFEST.tsv")


def read_manifest(folder):
    if not os.path.exists(manifest_path(folder)):
        return []
    with open(manifest_path(folder), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def write_atomically(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def run_name(path):
    return os.path.basename(path).split(".")[0]


def stats(tropa, path):
    """Games, plies and quiet positions of a chunk, as `tropa datagen-stats` reads them."""
    out = subprocess.run([tropa, "datagen-stats", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"selfplay_chunk: tropa datagen-stats {path}: {out.stderr.strip()}")
    words = out.stdout.split()
    def before(word):
        return int(words[words.index(word) - 1].rstrip(","))
    return before("games"), before("plies,"), before("quiet"), out.stdout


def cut(args):
    data = open(args.run, "rb").read()
    header = header_len(data, args.run)
    name = run_name(args.run)
    rows = read_manifest(args.folder)
    done = [r for r in rows if r["run"] == name]
    nodes, seed = struct.unpack_from("<IQ", data, 12)
    if any((int(r["nodes"]), int(r["seed"])) != (nodes, seed) for r in done):
        sys.exit(f"selfplay_chunk: {args.run} is not the run its earlier chunks come from")
    start = max([int(r["run_end"]) for r in done], default=header)
    if start > len(data):
        sys.exit(f"selfplay_chunk: {args.run} is shorter than its chunks ({start} bytes)")
    end = intact_end(data, start)
    if end == start:
        sys.exit(f"selfplay_chunk: no whole game in {args.run} after byte {start}")
    chunk = lzma.compress(data[:header] + data[start:end], preset=9 | lzma.PRESET_EXTREME)
    if len(chunk) > MAX_CHUNK:
        sys.exit(f"selfplay_chunk: the chunk would be {len(chunk)} bytes; cut more often")
    os.makedirs(args.folder, exist_ok=True)
    chunk_name = f"{name}-{len(done):03}.dg.xz"
    path = os.path.join(args.folder, chunk_name)
    write_atomically(path, chunk)
    games, plies, quiet, line = stats(args.tropa, path)
    rows.append({
        "chunk": chunk_name, "sha256": hashlib.sha256(chunk).hexdigest(), "bytes": len(chunk),
        "run": name, "run_end": end, "engine_commit": args.commit, "nodes": nodes,
        "seed": seed, "games": games, "plies": plies, "quiet_positions": quiet,
        "note": args.note,
    })
    text = "\t".join(COLUMNS) + "\n" + "".join(
        "\t".join(str(r[c]) for c in COLUMNS) + "\n" for r in rows)
    write_atomically(manifest_path(args.folder), text.encode())
    print(line.strip())
    print(f"{chunk_name}: {len(chunk)} bytes, run bytes {start}..{end}")


def restore(args):
    rows = [r for r in read_manifest(args.folder) if r["run"] == args.run]
    if not rows:
        sys.exit(f"selfplay_chunk: no chunk of run '{args.run}' in {args.folder}")
    out = bytearray()
    for r in rows:
        blob = open(os.path.join(args.folder, r["chunk"]), "rb").read()
        if hashlib.sha256(blob).hexdigest() != r["sha256"]:
            sys.exit(f"selfplay_chunk: {r['chunk']} does not match its sha256 in the manifest")
        data = lzma.decompress(blob)
        if out and data[:header_len(data, r["chunk"])] != out[:header_len(out, args.run)]:
            sys.exit(f"selfplay_chunk: {r['chunk']} has another header than the run's first chunk")
        out += data if not out else data[header_len(data, r["chunk"]):]
    write_atomically(args.out, bytes(out))
    print(f"{args.out}: {len(rows)} chunks, {len(out)} bytes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", default=os.path.join(HERE, "..", "data", "selfplay"),
                        help="where the chunks and MANIFEST.tsv live")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cut", help="compress the games added since the last chunk")
    c.add_argument("run", help="the run's data file (name before the first dot names the run)")
    c.add_argument("--commit", required=True, help="engine commit that generated the games")
    c.add_argument("--note", default="", help="how the run was started (options)")
    c.add_argument("--tropa", default=os.path.join(HERE, "..", "target", "release", "tropa"))
    r = sub.add_parser("restore", help="rebuild a run's file from its chunks")
    r.add_argument("run", help="run name, as in the manifest")
    r.add_argument("out", help="file to write")
    args = parser.parse_args()
    cut(args) if args.command == "cut" else restore(args)


if __name__ == "__main__":
    main()
