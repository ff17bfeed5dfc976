#!/usr/bin/env bash
# The whole test suite: install missing system libraries, build everything once (the CLI tests
# run the built txledger binary), then run every test, then the benchmarks at a small scale.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
swift build --build-tests
swift test --skip-build
# The benchmarks at a hundredth of their sizes, to keep them working (figures, no assertions).
bash scripts/bench.sh --scale 0.01 --json .build/bench-ci.json
