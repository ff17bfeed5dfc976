#!/usr/bin/env bash
# The library's documentation (DocC), as apps see it: one module, TxLedger, holding the public
# types of every layer it re-exports (ARCHITECTURE.md). SwiftPM's symbol graph of a target
# leaves out what it re-exports, so the re-exported symbols are extracted here
# (swift-symbolgraph-extract's -experimental-allowed-reexported-modules) and handed to
# swift-docc-plugin as an additional symbol graph. Every link and parameter must resolve.
# Arguments go to the plugin (e.g. --output-path DIR). Linux; on macOS, libsodium's module
# comes from swift-sodium instead of Sources/CSodium.
set -euo pipefail
cd "$(dirname "$0")/.."

layers=TxLedgerSodium,TxLedgerCore,TxLedgerMembership,TxLedgerStore,TxLedgerBundle,TxLedgerReplication,TxLedgerFolderSync,TxLedgerStatus
swift build --target TxLedger
bin="$(swift build --show-bin-path)"
triple="$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -1)"
graphs=.build/symbol-graphs/reexported
rm -rf "$graphs"
mkdir -p "$graphs"
swift-symbolgraph-extract -module-name TxLedger -target "$triple" -output-dir "$graphs" \
  -minimum-access-level public -skip-synthesized-members \
  -experimental-allowed-reexported-modules="$layers" \
  -I "$bin/Modules" -I Sources/CSodium -I .build/checkouts/GRDB.swift/Sources/GRDBSQLite \
  -Xcc -fmodule-map-file="$bin/CSQLiteDefensive.build/module.modulemap" \
  -Xcc -fmodule-map-file="$bin/CRecordBlocks.build/module.modulemap"
swift package --disable-sandbox generate-documentation --target TxLedger --warnings-as-errors \
  --additional-symbol-graph-dir "$graphs" "$@"
