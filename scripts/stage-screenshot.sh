#!/usr/bin/env bash
# The README's screenshot of the stage: `anim preview` of scripts/stage-screenshot.anim on the
# virtual clock, its page opened frozen at 1.9 s in Debian's headless Chromium, saved as PNG.
#   scripts/stage-screenshot.sh [OUT.png]      (default docs/stage.png)
# ANIM names the anim binary (default .build/debug/anim, built if missing). The browser tests
# run it into a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/stage.png}
anim=${ANIM:-.build/debug/anim}
[ -x "$anim" ] || swift build --product anim >&2
chromium=${ANIM_CHROMIUM:-/usr/bin/chromium}
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
"$anim" preview scripts/stage-screenshot.anim --clock virtual >"$work/line" 2>"$work/err" &
pid=$!
for _ in $(seq 1 600); do
  grep -q '^anim preview: ' "$work/line" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
  sleep 0.1
done
url=$(sed -n 's/^anim preview: //p' "$work/line")
[ -n "$url" ] || { echo "anim preview printed no address" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
"$chromium" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
  --window-size=1280,860 --virtual-time-budget=4000 --screenshot="$out" "$url&at=1.9s" >"$work/chromium.log" 2>&1 \
  || { cat "$work/chromium.log" >&2; exit 1; }
[ -s "$out" ] || { echo "no screenshot written" >&2; exit 1; }
echo "$out"
