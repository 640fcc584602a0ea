#!/usr/bin/env bash
# repl.idle.cpu: the CPU an interactive `anim repl` uses while nobody types and 10,000
# animations play (the engine ticking at 60 Hz on the real clock), as % of one core.
#
# Usage: Benchmarks/scripts/repl-idle.sh [ANIMATIONS] [SECONDS]
# Builds anim in release, writes a script of ANIMATIONS looping tweens (10,000 by default),
# starts `anim repl SCRIPT` on a real terminal (tmux), waits 2 s, then reads the process's
# user + system CPU time from /proc over SECONDS (5 by default). Prints `NAME VALUE UNIT`.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-10000}
seconds=${2:-5}
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --scratch-path .build-release --product anim >&2
anim="$PWD/.build-release/release/anim"
work=$(mktemp -d)
trap 'tmux -S "$work/tmux" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
script="$work/busy.anim"
{
  for ((i = 0; i < count; i++)); do echo "target t$i { x: 0 }"; done
  for ((i = 0; i < count; i++)); do echo "animate t$i.x to 100 over $((1 + i % 5))s repeat forever autoreverse"; done
} >"$script"
tmux -S "$work/tmux" new-session -d -x 120 -y 40 "XDG_STATE_HOME=$work $anim repl $script"
sleep 3
# The anim process itself (not the tmux server, whose command line names it too).
pid=$(ps -eo pid,comm,args | awk -v s="$script" '$2 == "anim" && index($0, s) { print $1; exit }')
[ -n "$pid" ] || { echo "anim repl did not start" >&2; exit 1; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks "$pid")
sleep "$seconds"
after=$(ticks "$pid")
# The animations must really be playing: no error on the screen, and a value that moves.
if tmux -S "$work/tmux" capture-pane -p | grep -q "error"; then
  tmux -S "$work/tmux" capture-pane -p >&2
  echo "anim repl reported an error" >&2
  exit 1
fi
for _ in 1 2; do
  tmux -S "$work/tmux" send-keys "t1.x" Enter
  sleep 0.3
done
values=$(tmux -S "$work/tmux" capture-pane -p | grep -o "t1.x = [0-9.e-]*" | tail -2 | sort -u | wc -l)
[ "$values" -eq 2 ] || { echo "the animations are not moving" >&2; exit 1; }
awk -v d=$((after - before)) -v hz="$hz" -v s="$seconds" -v n="$count" \
  'BEGIN { printf "repl.idle.cpu %.1f %% (of one core, %d animations, 60 Hz)\n", 100 * d / hz / s, n }'
