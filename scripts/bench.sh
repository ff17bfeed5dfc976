#!/usr/bin/env bash
# The benchmarks: install missing system libraries, build txledger-bench and txledger in release
# mode, run the benchmarks.
# Arguments go to txledger-bench: --scale 0.1 for a quick check, --json FILE for the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
swift build -c release --product txledger-bench
swift build -c release --product txledger   # the cli group runs it as whole processes
# The cli group's Yrs baseline (scripts/yrs-merge.py); without it the bench says so and goes on.
python3 -c 'import pycrdt' 2>/dev/null || python3 -m pip install --quiet pycrdt || true
"$(swift build -c release --show-bin-path)/txledger-bench" "$@"
