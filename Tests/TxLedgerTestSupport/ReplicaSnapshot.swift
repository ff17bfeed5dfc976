import Foundation

@testable import TxLedger
@testable import TxLedgerCore

/// The whole logical state of a replica: per vault, its watermark and every stored record state
/// (visible or kept invisible after a clear), stamps included.
struct ReplicaSnapshot: Equatable, CustomStringConvertible {
    var vaults: [String: Vault] = [:]

    struct Vault: Equatable {
        let clearedThrough: Stamp?
        let records: [RecordState]
    }

    init(_ ledger: Ledger) async throws {
        for vault in try await ledger.vaults() {
            let changes = try await ledger.changes(vault: vault)
            vaults[vault] = Vault(
                clearedThrough: changes.clearedThrough,
                records: changes.records.sorted { $0.id < $1.id }
            )
        }
    }

    /// Vaults with neither a watermark nor records are the same as absent ones.
    var normalized: [String: Vault] { vaults.filter { $0.value.clearedThrough != nil || !$0.value.records.isEmpty } }

    static func == (a: ReplicaSnapshot, b: ReplicaSnapshot) -> Bool { a.normalized == b.normalized }

    var description: String {
        normalized.sorted { $0.key < $1.key }.map {
            "\($0.key): W=\($0.value.clearedThrough.map(String.init(describing:)) ?? "-") \($0.value.records.map { "\($0.id.rawValue.prefix(6)):\($0.record.status.rawValue)" })"
        }
        .joined(separator: "; ")
    }
}

extension Ledger {
    /// Sends this replica's delta (or whole state) for every vault to `peer`, as a sync would.
    @discardableResult
    func sync(to peer: Ledger, full: Bool = false) async throws -> MergeReport {
        var sets: [ChangeSet] = []
        for vault in try await vaults() {
            sets.append(try await changes(vault: vault, forPeer: full ? nil : peer.replicaID))
        }
        return try await peer.merge(sets)
    }
}
