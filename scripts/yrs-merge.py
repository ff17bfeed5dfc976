#!/usr/bin/env python3
"""The merge.100k shape merged by Yrs (the Rust Yjs, through pycrdt) in memory: txledger-bench's
same-run baseline for importing 100k records into a 100k replica (issue #36).

Replica A holds N records; replica B holds A's first half, each seen failed with a note, and
N/2 records new to A. Each record is one entry of a Y.Map keyed by its 32-hex id, whose value is
the record as one plain value (the facts, the status and the note): the flattest shape Yrs
merges, so the fastest. B's whole state as one update is applied to A; the seconds of the
apply alone, the median of RUNS, are printed on stdout as a number.

Usage: yrs-merge.py N [RUNS]   (needs `pip install pycrdt`)
"""
import statistics
import sys
import time

import pycrdt


def record(i, status, note):
    value = {
        "kind": "send",
        "chain": "ethereum",
        "timestamp_ms": 1_700_000_000_000 + i * 1000,
        "tx_hash": "0x%064x" % i,
        "from_address": "0x%040x" % (i * 3),
        "to_address": "0x%040x" % (i * 7),
        "amount": str(i * 1000),
        "token_symbol": "ETH",
        "status": status,
    }
    if note:
        value["note"] = note
    return value


def replica(entries):
    doc = pycrdt.Doc()
    records = doc.get("records", type=pycrdt.Map)
    with doc.transaction():
        for i, status, note in entries:
            records["%032x" % i] = record(i, status, note)
    return doc, records


def once(n):
    half = n // 2
    a, records = replica((i, "confirmed", None) for i in range(n))
    b, _ = replica(
        [(i, "failed", "checked on the laptop #%d" % i) for i in range(half)]
        + [(i, "confirmed", None) for i in range(n, n + half)]
    )
    update = b.get_update()
    start = time.perf_counter()
    a.apply_update(update)
    seconds = time.perf_counter() - start
    if len(records) != n + half:
        sys.exit("yrs-merge: expected %d records after the merge, got %d" % (n + half, len(records)))
    return seconds


def main():
    n = int(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print("%.6f" % statistics.median(once(n) for _ in range(runs)))


if __name__ == "__main__":
    main()
