#!/usr/bin/env bash
# Fuzzes with libFuzzer for SECONDS seconds: the front end (lex, parse, check, fmt), or
# restoring saved sessions.
#
#   fuzz/run.sh [restore] SECONDS [LIBFUZZER OPTIONS...]
#
# Builds anim-fuzz (or anim-fuzz-restore) with -sanitize=fuzzer,address into .build-fuzz,
# copies the seed corpus (fuzz/corpus, or fuzz/restore-corpus) into fuzz-corpus-work/ (or
# fuzz-restore-corpus-work/; not committed: they keep what earlier runs found), and runs on
# it. A crash, a hang (over 10 s for one input) or an out-of-memory is written to
# fuzz-artifacts/ as crash-*, timeout-* or oom-*; replay one with a plain build:
# `swift run anim-fuzz fuzz-artifacts/crash-...` (or anim-fuzz-restore). Add it to the
# corpus with its fix.
set -euo pipefail
cd "$(dirname "$0")/.."

product=anim-fuzz corpus=fuzz/corpus work=fuzz-corpus-work extra=(-dict=fuzz/anim.dict -max_len=16384)
if [ "${1:-}" = restore ]; then
  product=anim-fuzz-restore corpus=fuzz/restore-corpus work=fuzz-restore-corpus-work extra=(-max_len=65536)
  shift
fi
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: fuzz/run.sh [restore] SECONDS [LIBFUZZER OPTIONS...]" >&2
  exit 64
fi
seconds=$1
shift

export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --scratch-path .build-fuzz --product "$product" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
binary="$(swift build -c release --scratch-path .build-fuzz --show-bin-path)/$product"

mkdir -p "$work" fuzz-artifacts
cp -n "$corpus"/* "$work"/ 2>/dev/null || true

# Swift's backtracer would add a spurious report to ASan's.
export SWIFT_BACKTRACE=enable=no
exec "$binary" "$work" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 "${extra[@]}" \
  -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 "$@"
