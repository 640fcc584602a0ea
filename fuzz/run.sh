#!/usr/bin/env bash
# Fuzzes the front end (lex, parse, check, fmt) with libFuzzer for SECONDS seconds.
#
#   fuzz/run.sh SECONDS [LIBFUZZER OPTIONS...]
#
# Builds anim-fuzz with -sanitize=fuzzer,address into .build-fuzz, copies the seed corpus
# (fuzz/corpus) into fuzz-corpus-work/ (not committed; it keeps what earlier runs found),
# and runs on it. A crash, a hang (over 10 s for one input) or an out-of-memory is written
# to fuzz-artifacts/ as crash-*, timeout-* or oom-*; replay one with a plain build:
# `swift run anim-fuzz fuzz-artifacts/crash-...`. Add it to fuzz/corpus with its fix.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: fuzz/run.sh SECONDS [LIBFUZZER OPTIONS...]" >&2
  exit 64
fi
seconds=$1
shift

export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --scratch-path .build-fuzz --product anim-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
binary="$(swift build -c release --scratch-path .build-fuzz --show-bin-path)/anim-fuzz"

mkdir -p fuzz-corpus-work fuzz-artifacts
cp -n fuzz/corpus/* fuzz-corpus-work/ 2>/dev/null || true

# Swift's backtracer would add a spurious report to ASan's.
export SWIFT_BACKTRACE=enable=no
exec "$binary" fuzz-corpus-work \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -dict=fuzz/anim.dict -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 "$@"
