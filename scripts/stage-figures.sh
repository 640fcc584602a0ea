#!/usr/bin/env bash
# The stage's figures (README, Figures): with 1,000 animated targets, the intervals between
# requestAnimationFrame callbacks over 10 s in headless Chromium with --disable-gpu (95 % should
# be at most 17.5 ms and none over 50 ms); and the server's CPU with the page open and nothing
# moving, over 30 s, from the kernel's process accounting (/proc/PID/stat; should be under 2 %
# of a core). Needs chromium, chromium-driver and Selenium (pip install selenium).
#   scripts/stage-figures.sh            (builds the release anim first)
# ANIM names another anim binary.
set -euo pipefail
cd "$(dirname "$0")/.."
anim=${ANIM:-}
if [ -z "$anim" ]; then
  swift build -c release --product anim >&2
  anim=.build/release/anim
fi
exec python3 scripts/stage_browser.py "$anim"
