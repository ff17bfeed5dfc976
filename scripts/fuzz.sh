#!/usr/bin/env bash
# A long run of the bundle fuzzer (Tests/TxLedgerFuzzTests/BundleFuzzTests.swift): the randomized
# mutator over the spec's vectors, with a larger budget than CI's, and the peak memory it took.
# Usage: scripts/fuzz.sh [iterations per vector and layer, default 20000] [seed, default random]
set -euo pipefail
cd "$(dirname "$0")/.."
export TXLEDGER_FUZZ_ITERATIONS="${1:-20000}"
export TXLEDGER_FUZZ_SEED="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
for value in "$TXLEDGER_FUZZ_ITERATIONS" "$TXLEDGER_FUZZ_SEED"; do
  [[ "$value" =~ ^[0-9]{1,19}$ ]] || { echo "fuzz.sh: '$value' is not a whole number; usage: scripts/fuzz.sh [iterations] [seed]" >&2; exit 64; }
done
bash scripts/setup-system.sh
swift build --build-tests
echo "fuzz: $TXLEDGER_FUZZ_ITERATIONS iterations per vector and layer, seed $TXLEDGER_FUZZ_SEED (TXLEDGER_FUZZ_SEED reruns it)"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "fuzz: peak resident memory %M KiB, %e s" swift test --skip-build --filter TxLedgerFuzzTests.BundleFuzzTests
else
  swift test --skip-build --filter TxLedgerFuzzTests.BundleFuzzTests
fi
