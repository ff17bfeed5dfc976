#!/usr/bin/env bash
# The main job: install missing system libraries, build txledger in release mode, and run it on
# the default ledger ($TXLEDGER_DB, else the platform's data folder) as a user's laptop, with a
# second ledger next to it as the same user's phone. Each device records transactions and moves
# statuses (with a conflict); the laptop hands the phone one encrypted bundle by hand, then both
# sync through a shared folder with `txledger sync`, and both print the same converged history.
# Safe to run again: ids derive from the transactions, so nothing is recorded twice, and a
# second sync carries only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
swift build -c release --product txledger
txledger() { "$(swift build -c release --show-bin-path)/txledger" "$@"; }

laptop_db=$(txledger init | sed -n 's/^ledger //p')
data_dir=$(dirname "$laptop_db")
phone() { txledger --db "$data_dir/demo-phone.sqlite" "$@"; }
vault=demo-vault

echo "== laptop ($laptop_db): records three transactions and a signature request"
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

echo "== phone ($data_dir/demo-phone.sqlite): records a send of its own"
phone record send --vault "$vault" --chain solana --from 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV \
  --to 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM \
  --hash 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UJKdiSZkQUW \
  --amount 12.5 --token SOL --at 2025-07-04T10:00:00Z
phone status 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UJKdiSZkQUW pending

# The user's vault sync key, made once and copied to each device (here: next to the ledgers).
key="$data_dir/demo-vault.key"
[ -f "$key" ] || txledger keygen --out "$key"
shared="$data_dir/demo-shared-folder"   # stands for a cloud drive folder both devices see
mkdir -p "$shared"
bundle=$(mktemp -d)   # stands for AirDrop or a USB stick
trap 'rm -rf "$bundle"' EXIT

echo; echo "== laptop -> phone by hand: a bundle sealed with the sync key"
txledger export --vault "$vault" --out "$bundle/laptop.txb" --key-file "$key"
txledger inspect "$bundle/laptop.txb"        # without the key: format, key mode, size only
phone import "$bundle/laptop.txb" --key-file "$key"

echo; echo "== both edit the same send while apart: the phone confirms it and notes it, then the laptop notes it too"
phone status 0x2f1c5c2b44f771e942a8506148e256f94f1a464babc938ae0690c6e34cd79190 confirmed --at 2025-07-02T18:41:07Z
phone note 0x2f1c5c2b44f771e942a8506148e256f94f1a464babc938ae0690c6e34cd79190 "paid from the phone"
txledger note 0x2f1c5c2b44f771e942a8506148e256f94f1a464babc938ae0690c6e34cd79190 "July invoice, paid"

echo; echo "== both sync through the shared folder ($shared): each writes its own files, reads the other's"
phone sync "$shared" --key-file "$key"
txledger sync "$shared" --key-file "$key"
phone sync "$shared" --key-file "$key"     # the later note wins on both
ls -l "$shared"                            # names that reveal nothing

echo; echo "== the laptop's history"
txledger list --vault "$vault"
echo; echo "== the phone's history"
phone list --vault "$vault"
if [ "$(txledger list --vault "$vault" --json)" = "$(phone list --vault "$vault" --json)" ]; then
  echo; echo "converged: both devices hold the same history"
else
  echo; echo "NOT converged" >&2; exit 1
fi
