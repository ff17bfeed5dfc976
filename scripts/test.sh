#!/usr/bin/env bash
# The whole test suite: install missing system libraries, check the formatting, build
# everything once (the CLI tests run the built txledger binary), then run every test, build the
# documentation, then run the benchmarks at a small scale.
#
#   scripts/test.sh              the format lint, every test kind, the DocC documentation, then
#                                the benchmarks at a hundredth of their sizes
#   scripts/test.sh --stress [N] the whole suite N times (default 3) on one core with a CPU hog
#                                beside it (Linux, taskset): it must pass on a loaded machine too
#
# One kind alone: swift test --filter TxLedgerUnitTests (or TxLedgerEndToEndTests,
# TxLedgerCrashTests, TxLedgerFuzzTests) after a first run of this script.
set -euo pipefail
cd "$(dirname "$0")/.."

stress_runs=0
case "${1:-}" in
  "") ;;
  --stress)
    stress_runs="${2:-3}"
    [[ "$stress_runs" =~ ^[1-9][0-9]{0,2}$ ]] || { echo "test.sh: '$stress_runs' is not a number of runs; usage: scripts/test.sh [--stress [N]]" >&2; exit 64; }
    command -v taskset >/dev/null 2>&1 || { echo "test.sh: --stress needs taskset (Linux, util-linux)" >&2; exit 69; }
    ;;
  *) echo "test.sh: unknown argument '$1'; usage: scripts/test.sh [--stress [N]]" >&2; exit 64 ;;
esac

bash scripts/setup-system.sh
# A real EVM (eth-tester in .build/evm) for the speed-up test; skipped where it cannot be had.
bash scripts/setup-evm.sh
# The code's formatting (.swift-format, swift-nio's configuration): any finding fails the run.
# `swift format format -i -r Sources Tests Package.swift` fixes most of them.
swift format lint --strict -r Sources Tests Package.swift
# Every import must be a declared dependency: the layers of ARCHITECTURE.md, enforced.
swift build --build-tests --explicit-target-dependency-import-check error

if [ "$stress_runs" -eq 0 ]; then
  swift test --skip-build
  # The library's documentation (DocC): every link and parameter documented, or it fails.
  bash scripts/docs.sh
  # The benchmarks at a hundredth of their sizes, to keep them working (figures, no assertions).
  bash scripts/bench.sh --scale 0.01 --json .build/bench-ci.json
  exit 0
fi

# A busy loop on core 0, and the suite pinned to that core too: Swift's cooperative pool then
# has one thread, and the suite gets half of one core.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
trap 'kill "$hog" 2>/dev/null || true' EXIT
for run in $(seq 1 "$stress_runs"); do
  echo "test.sh: stress run $run of $stress_runs (one core, with a CPU hog beside it)"
  taskset -c 0 swift test --skip-build
done
echo "test.sh: $stress_runs stress runs passed"
