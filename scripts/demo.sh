#!/usr/bin/env bash
# The main job: install missing system libraries, build txledger in release mode, and run it on
# the default ledger ($TXLEDGER_DB, else the platform's data folder): record example sends, a
# swap and a signature, move their statuses, and print the history. Safe to run again: the
# ledger derives ids from the transactions, so nothing is recorded twice.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
swift build -c release --product txledger
txledger() { "$(swift build -c release --show-bin-path)/txledger" "$@"; }

txledger init
vault=demo-vault
me=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed
txledger record send --vault "$vault" --chain ethereum --from "$me" --to 0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359 \
  --hash 0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b \
  --amount 0.25 --token ETH --fee 0.000042 --fiat 812.40 --at 2025-07-01T09:15:00Z --method eth_sendTransaction
txledger record send --vault "$vault" --chain base --from "$me" --to 0x1dF62f291b2E969fB0849d99D9Ce41e2F137006e \
  --hash 0x2f1c5c2b44f771e942a8506148e256f94f1a464babc938ae0690c6e34cd79190 \
  --amount 1234567890.123456789012345678 --token USDC --token-contract 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 \
  --token-decimals 6 --memo "invoice 42" --at 2025-07-02T18:40:00Z
txledger record swap --vault "$vault" --chain thorchain --from thor1qzd5jnzz8qm9wy2h8x8v9z3m4wv0q0vqx0r5ld \
  --hash 9C6E1A3F0B2D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7 \
  --from-token RUNE --from-amount 150 --to-token BTC --to-amount 0.00512 --min-payout 0.0050 --to-chain bitcoin \
  --provider THORChain --route "RUNE -> BTC" --fiat 410.00 --at 2025-07-03T07:05:00Z
txledger record signature --vault "$vault" --chain ethereum --from "$me" --method personal_sign \
  --message "Sign in to app.example.com" --app-domain app.example.com --at 2025-07-03T07:30:00Z

txledger status 0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b confirmed --at 2025-07-01T09:15:24Z
txledger status 0x2f1c5c2b44f771e942a8506148e256f94f1a464babc938ae0690c6e34cd79190 pending
txledger status 9C6E1A3F0B2D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7 failed --reason "refunded: slippage"
# A late "pending" answer after "confirmed" changes nothing: the status lattice never goes back.
txledger status 0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b pending
txledger note 0x2f1c5c2b44f771e942a8506148e256f94f1a464babc938ae0690c6e34cd79190 "July invoice"

echo
txledger list --vault "$vault"
