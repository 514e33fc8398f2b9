#!/usr/bin/env python3
"""Cut the games a `tropa datagen` run has added since its last chunk into a new compressed chunk
under data/selfplay/, and record it in data/selfplay/MANIFEST.tsv; rebuild a run's file from
its chunks so that `tropa datagen` can resume it; or convert the chunks of older format
versions to the current, compact one.

Design note: a chunk is itself a valid data file (the run's header, then whole frames),
so the trainer and `tropa datagen-stats` read each chunk on its own, and the frames of a run's
chunks concatenated after one header are the run's file again. The cut is made at the last whole
frame whose checksum holds (a generator still writing leaves a torn tail, which waits for the
next chunk). The manifest row records where in the run's file the chunk ends, so the next cut
starts there. A conversion rewrites each older chunk with `tropa datagen-convert` (which checks
that the games read back unchanged), checks the games, plies and quiet positions against the
manifest, and sets the manifest's sizes, hashes and run ends anew; a run's file from before the
conversion no longer matches its chunks, and `cut` refuses it until the run is restored from
them. Files are written to a temporary name and renamed.

  python3 scripts/selfplay_chunk.py [--folder F] cut RUN.dg --commit HASH [--note TEXT]
  python3 scripts/selfplay_chunk.py [--folder F] restore RUN_NAME OUT.dg
  python3 scripts/selfplay_chunk.py [--folder F] convert [--tropa BIN]
"""

import argparse
import csv
import hashlib
import lzma
import os
import struct
import subprocess
import sys

from atomic_file import write_atomically

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ["chunk", "sha256", "bytes", "run", "run_end", "engine_commit", "nodes", "seed",
           "games", "plies", "quiet_positions", "note"]
# Header bytes by format version (version 2 adds the evaluation the games were played with;
# version 3 codes the plies compactly).
HEADERS = {1: 24, 2: 32, 3: 32}
VERSION = 3
FRAME_HEADER = 12
MAGIC = b"TropaDG\0"
MAX_CHUNK = 20 * 1000 * 1000


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def version_of(data):
    return struct.unpack_from("<H", data, 8)[0]


def header_len(data, path):
    """Bytes of the header of the data file image `data` (read from `path`)."""
    if len(data) < 10 or data[:8] != MAGIC:
        sys.exit(f"selfplay_chunk: {path} is not a tropa datagen file")
    version = version_of(data)
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


def write_manifest(folder, rows):
    text = "\t".join(COLUMNS) + "\n" + "".join(
        "\t".join(str(r[c]) for c in COLUMNS) + "\n" for r in rows)
    write_atomically(manifest_path(folder), text.encode())


def compress(data):
    return lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)


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
    if done:
        last = lzma.decompress(open(os.path.join(args.folder, done[-1]["chunk"]), "rb").read())
        if version_of(last) != version_of(data):
            sys.exit(f"selfplay_chunk: {args.run} is format version {version_of(data)}, its "
                     f"chunks version {version_of(last)}: restore the run from its chunks first")
    start = max([int(r["run_end"]) for r in done], default=header)
    if start > len(data):
        sys.exit(f"selfplay_chunk: {args.run} is shorter than its chunks ({start} bytes)")
    end = intact_end(data, start)
    if end == start:
        sys.exit(f"selfplay_chunk: no whole game in {args.run} after byte {start}")
    chunk = compress(data[:header] + data[start:end])
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
    write_manifest(args.folder, rows)
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


def convert(args):
    rows = read_manifest(args.folder)
    run_ends = {}
    for r in rows:
        path = os.path.join(args.folder, r["chunk"])
        blob = open(path, "rb").read()
        data = lzma.decompress(blob)
        expected = (int(r["games"]), int(r["plies"]), int(r["quiet_positions"]))
        if hashlib.sha256(blob).hexdigest() != r["sha256"]:
            # A conversion stopped between a chunk and its manifest row leaves a converted chunk
            # with the old row: the same games, plies and quiet positions.
            if version_of(data) != VERSION or stats(args.tropa, path)[:3] != expected:
                sys.exit(f"selfplay_chunk: {r['chunk']} does not match its sha256 in the manifest")
            r["sha256"], r["bytes"] = hashlib.sha256(blob).hexdigest(), len(blob)
        if version_of(data) != VERSION:
            plain, converted = path + ".old.tmp", path + ".new.tmp"
            with open(plain, "wb") as f:
                f.write(data)
            out = subprocess.run([args.tropa, "datagen-convert", plain, converted],
                                 capture_output=True, text=True)
            os.remove(plain)
            if out.returncode != 0:
                sys.exit(f"selfplay_chunk: tropa datagen-convert {r['chunk']}: {out.stderr.strip()}")
            data = open(converted, "rb").read()
            os.remove(converted)
            blob = compress(data)
            staged = path[:-len(".xz")] + ".tmp.xz"  # read by tropa as xz
            write_atomically(staged, blob)
            counts = stats(args.tropa, staged)[:3]
            if counts != expected:
                os.remove(staged)
                sys.exit(f"selfplay_chunk: {r['chunk']} converted holds {counts} games, plies "
                         f"and quiet positions, the manifest says {expected}")
            os.replace(staged, path)
            print(f"{r['chunk']}: {r['bytes']} -> {len(blob)} bytes", flush=True)
            r["sha256"], r["bytes"] = hashlib.sha256(blob).hexdigest(), len(blob)
        header = header_len(data, r["chunk"])
        run_ends[r["run"]] = run_ends.get(r["run"], header) + len(data) - header
        r["run_end"] = run_ends[r["run"]]
        # The manifest follows every chunk, so an interrupted conversion leaves it true.
        write_manifest(args.folder, rows)


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
    v = sub.add_parser("convert", help="rewrite older chunks in the current format")
    v.add_argument("--tropa", default=os.path.join(HERE, "..", "target", "release", "tropa"))
    args = parser.parse_args()
    {"cut": cut, "restore": restore, "convert": convert}[args.command](args)


if __name__ == "__main__":
    main()
