#!/usr/bin/env bash
# The page of `tropa serve` in a real browser (tests/browser/serve_page.mjs): installs what it
# needs where it is missing — Debian's chromium with apt-get (as root, as CI runs), and a pinned
# playwright-core with npm into the output folder — starts the server on a free port of
# 127.0.0.1, runs the script and stops the server. The screenshot stays in the output folder as
# a test artefact (not committed).
#
# Usage: bash tests/browser/run.sh [TROPA_BINARY] [OUTPUT_DIR]
#   default binary: target/release/tropa; default output: target/browser-test
set -euo pipefail
cd "$(dirname "$0")/../.."
tropa="${1:-target/release/tropa}"
out="${2:-target/browser-test}"
playwright_version=1.65.2
chromium=/usr/bin/chromium

if [ ! -x "$tropa" ]; then
    echo "tests/browser/run.sh: no binary at $tropa (cargo build --release first)" >&2
    exit 1
fi
if [ ! -x "$chromium" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "tests/browser/run.sh: $chromium is missing; as root: apt-get install chromium" >&2
        exit 1
    fi
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "tests/browser/run.sh: node and npm are missing; as root: apt-get install nodejs npm" >&2
        exit 1
    fi
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
fi
mkdir -p "$out"
installed="$out/node_modules/playwright-core/package.json"
if ! grep -q "\"version\": \"$playwright_version\"" "$installed" 2>/dev/null; then
    npm install --prefix "$out" --no-save --no-audit --no-fund --no-package-lock \
        "playwright-core@$playwright_version"
fi

log="$out/serve.log"
"$tropa" serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 100); do
    url=$(grep -o 'http://[^ ]*' "$log" || true)
    if [ -n "$url" ]; then break; fi
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "tests/browser/run.sh: the server printed no address:" >&2
    cat "$log" >&2
    exit 1
fi
echo "tests/browser/run.sh: $tropa serves $url"
node tests/browser/serve_page.mjs "$url" "$out"
