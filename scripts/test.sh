#!/usr/bin/env bash
# The whole test suite: install missing system libraries, build everything once (the CLI tests
# run the built txledger binary), then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
swift build --build-tests
swift test --skip-build
