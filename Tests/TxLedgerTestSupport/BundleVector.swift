import Foundation

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore

/// One entry of a set of test vectors, `Specs/vectors/v5-shared/index.json` (the format writers
/// use, with a shared secret) or `v4`, `v3`, `v2` and `v1` (older formats readers keep reading):
/// Specs/bundle-format.md, "Test vectors".
struct BundleVector: Codable {
    let name: String
    let comment: String
    /// The bundle file, next to index.json.
    let file: String
    /// The secret that opens it: a sync key in its printable form, or a passphrase.
    var syncKey: String?
    var passphrase: String?
    /// `ok`, or the failure class (`BundleError.code`).
    let expect: String
    /// With `ok`: what the bundle decodes to.
    var contents: Contents?
    /// The folder of its set (not in the JSON).
    var folder = Self.folder

    private enum CodingKeys: String, CodingKey {
        case name, comment, file, syncKey, passphrase, expect, contents
    }

    /// The set of the format writers use, and the sets of older formats.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Specs/vectors/v5-shared")
    static let formatFourFolder = folder.deletingLastPathComponent().appendingPathComponent("v4")
    static let formatThreeFolder = folder.deletingLastPathComponent().appendingPathComponent("v3")
    static let formatTwoFolder = folder.deletingLastPathComponent().appendingPathComponent("v2")
    static let formatOneFolder = folder.deletingLastPathComponent().appendingPathComponent("v1")
    static let folders = [folder, formatFourFolder, formatThreeFolder, formatTwoFolder, formatOneFolder]

    /// The vectors of every set.
    static func all() throws -> [BundleVector] {
        try folders.flatMap { folder in
            try JSONDecoder().decode(
                [BundleVector].self,
                from: Data(contentsOf: folder.appendingPathComponent("index.json"))
            )
            .map { vector in
                var vector = vector
                vector.folder = folder
                return vector
            }
        }
    }

    var path: String { folder.appendingPathComponent(file).path }

    func secret() throws -> BundleSecret {
        if let syncKey { return .syncKey(try SyncKey(printable: syncKey)) }
        return .passphrase(try Passphrase(passphrase ?? ""))  // none: an empty passphrase, refused
    }

    /// A decoded change set: its header, and each record in the JSON shape of schema.md with the
    /// stamps of its registers.
    struct Contents: Codable, Equatable, Sendable {
        let vault: String
        let origin: String
        let since: Int64
        let through: Int64
        let knowledge: [String: Int64]
        /// Format 3: the epoch of each knowledge entry (where known), and the origin's epochs.
        var knowledgeEpochs: [String: String]?
        var lineage: [EpochJSON]?
        let clearedThrough: StampJSON?
        let records: [Record]

        struct Record: Codable, Equatable, Sendable {
            /// The record as its JSON reads back (`asInput`), and from format 5 what only a
            /// stored state says: whether the chain said its outcome, and the claim against it.
            let record: TransactionRecord
            var statusCheckedOnChain: Bool?
            var statusDispute: StatusDispute?
            /// `facts`, and each of `pending`, `terminal`, `note`, `labels`, `hidden`, `inferred`
            /// once written; from format 5, a clear mark's `cleared` and `clearedThrough`, and
            /// the stamp of the terminal register's `rival`.
            let stamps: [String: StampJSON]
            /// Format 4: the fields of a newer version the record carries, if any.
            var newerFields: [NewerFieldJSON]?
        }

        init(_ header: ChangeSetHeader, records: [RecordState]) {
            vault = header.vaultId
            origin = header.origin.description
            since = header.since
            through = header.through
            knowledge = Dictionary(uniqueKeysWithValues: header.knowledge.map { ($0.key.description, $0.value) })
            if let lineage = header.lineage {
                knowledgeEpochs = Dictionary(
                    uniqueKeysWithValues: header.knowledgeEpochs.map { ($0.key.description, $0.value.description) }
                )
                self.lineage = lineage.map { EpochJSON(id: $0.id.description, firstSeq: $0.firstSeq) }
            }
            clearedThrough = header.clearedThrough.map(StampJSON.init)
            self.records = records.map { state in
                let stamps: [(String, Stamp?)] = [
                    ("facts", state.facts.stamp), ("pending", state.status.pending),
                    ("terminal", state.status.terminal?.stamp), ("note", state.note?.stamp),
                    ("labels", state.labels?.stamp), ("hidden", state.hidden?.stamp),
                    ("inferred", state.status.inferred?.stamp), ("cleared", state.cleared?.stamp),
                    ("clearedThrough", state.cleared?.through), ("rival", state.status.rival?.stamp),
                ]
                let newer = state.newerFields.fields
                return Record(
                    record: state.record.asInput,
                    statusCheckedOnChain: state.record.statusCheckedOnChain ? true : nil,
                    statusDispute: state.record.statusDispute,
                    stamps: Dictionary(
                        uniqueKeysWithValues: stamps.compactMap { name, stamp in
                            stamp.map { (name, StampJSON($0)) }
                        }
                    ),
                    newerFields: newer.isEmpty ? nil : newer.map(NewerFieldJSON.init)
                )
            }
        }
    }

    /// A newer field: its number, wire type (`varint`, `stampTime`, `text`, `sharedText`,
    /// `replica`, `bytes`) and value as text: an integer in decimal, a text as it is, a replica
    /// in 16 hex digits, bytes in lowercase hex.
    struct NewerFieldJSON: Codable, Equatable, Sendable {
        let number: Int
        let wire: String
        let value: String

        init(_ field: NewerField) {
            number = field.number
            (wire, value) =
                switch field.value {
                case let .varint(value): ("varint", String(value))
                case let .stampTime(time): ("stampTime", String(time))
                case let .text(text): ("text", text)
                case let .sharedText(text): ("sharedText", text)
                case let .replica(replica): ("replica", replica.description)
                case let .bytes(bytes): ("bytes", bytes.map { String(format: "%02x", $0) }.joined())
                }
        }
    }

    /// An epoch: its id in 16 hex digits and its first change sequence number.
    struct EpochJSON: Codable, Equatable, Sendable {
        let id: String
        let firstSeq: Int64
    }

    /// A stamp: `time` is `millis << 16 | counter`, `replica` 16 hex digits.
    struct StampJSON: Codable, Equatable, Sendable {
        let time: Int64
        let replica: String

        init(_ stamp: Stamp) {
            time = stamp.time
            replica = stamp.replica.description
        }
    }

    /// Reads the bundle at `path` to its end, as `import` does, keeping the records.
    static func decode(_ path: String, secret: BundleSecret) async throws -> Contents {
        let changes = try await BundleFixture.decode(path, secret: secret)
        return Contents(changes.header, records: changes.records)
    }
}
