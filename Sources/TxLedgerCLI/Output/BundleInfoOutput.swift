import TxLedger

/// A bundle as `export`, `import` and `inspect` show it: `key: value` lines, or JSON.
struct BundleInfoOutput: Encodable {
    let file: String
    let formatVersion: Int
    let keyMode: String
    let argon2idPasses: UInt64?
    let argon2idMemoryBytes: UInt64?
    let bytes: Int
    let vault: String?
    let origin: String?
    let since: Int64?
    let through: Int64?
    let full: Bool?
    let clearedThrough: String?
    let knowledge: [String: Int64]?
    /// Format 3 on: the epoch of each knowledge entry, where known, and the origin's epochs.
    let knowledgeEpochs: [String: String]?
    let lineage: [Epoch]?
    let records: Int?

    /// An epoch as the JSON shows it: its id in 16 hex digits, its first change.
    struct Epoch: Encodable {
        let id: String
        let firstSeq: Int64
    }

    init(path: String, info: BundleInfo) {
        file = path
        formatVersion = info.formatVersion
        keyMode =
            switch info.keyMode {
            case .syncKey: "sync-key"
            case .passphrase: "passphrase"
            default: "device-keys"
            }
        argon2idPasses = info.passphraseCost?.operations
        argon2idMemoryBytes = info.passphraseCost?.memoryBytes
        bytes = info.byteCount
        let changes = info.changes
        vault = changes?.vaultId
        origin = changes?.origin.description
        since = changes?.since
        through = changes?.through
        full = changes?.isFull
        clearedThrough = changes?.clearedThrough?.description
        knowledge = changes.map {
            Dictionary(uniqueKeysWithValues: $0.knowledge.map { ($0.key.description, $0.value) })
        }
        knowledgeEpochs = changes.flatMap { changes in
            changes.lineage.map { _ in
                Dictionary(
                    uniqueKeysWithValues: changes.knowledgeEpochs.map { ($0.key.description, $0.value.description) }
                )
            }
        }
        lineage = changes?.lineage?.map { Epoch(id: $0.id.description, firstSeq: $0.firstSeq) }
        records = info.recordCount
    }

    var text: String {
        var lines = ["bundle: \(OutsideText.escaped(file))", "format: \(formatVersion)"]
        if let argon2idPasses, let argon2idMemoryBytes {
            lines.append("key mode: passphrase (Argon2id, \(argon2idPasses) passes, \(argon2idMemoryBytes >> 20) MiB)")
        } else {
            lines.append("key mode: sync key")
        }
        lines.append("size: \(bytes) bytes")
        if let vault, let origin, let since, let through, let records {
            lines.append("vault: \(OutsideText.escaped(vault))")
            lines.append("origin: replica \(origin)")
            lines.append(
                "changes: " + (since == 0 ? "all, through #\(through)" : "after #\(since), through #\(through)")
            )
            lines.append("records: \(records)")
            if let clearedThrough { lines.append("cleared through: \(clearedThrough)") }
        }
        return lines.joined(separator: "\n")
    }
}
