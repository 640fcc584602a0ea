#!/usr/bin/env bash
# The stage's figures (README, Figures): with 1,000 animated targets, the intervals between
# requestAnimationFrame callbacks over 10 s in headless Chromium with --disable-gpu (95 % should
# be at most 17.5 ms and none over 50 ms); and the server's CPU with the page open and nothing
# moving, over 30 s, from the kernel's process accounting (/proc/PID/stat; should be under 2 %
# of a core), for `anim preview` and for `anim repl --preview` (on a terminal: tmux), with one
# target and with 1,000 at rest. Each line gives the load average (the machine may be shared).
# Needs chromium, chromium-driver, tmux and Selenium (pip install selenium).
#   scripts/stage-figures.sh [all|raf|idle] [--runs N] [--profile]
#     (builds the release anim first; --runs measures stage.raf N times; --profile adds where
#     the page's main thread went, from a DevTools CPU profile of the measured seconds)
# ANIM names another anim binary.
set -euo pipefail
cd "$(dirname "$0")/.."
anim=${ANIM:-}
if [ -z "$anim" ]; then
  swift build -c release --product anim >&2
  anim=.build/release/anim
fi
exec python3 scripts/stage_browser.py "$anim" "$@"
