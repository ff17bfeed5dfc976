import ArgumentParser
import Foundation
import TxLedger

struct ClearedCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "cleared",
        abstract: "List the cleared records this device can still restore (30 days after it first held them cleared).",
        discussion: "`txledger restore` brings them back on every device."
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "Only this vault (default: every vault).") var vault: String?
    @Flag(help: "Print JSON.") var json = false

    func run(on ledger: Ledger) async throws {
        var found: [ClearedRecord] = []
        var vaults = [String]()
        if let vault { vaults = [vault] } else { vaults = try await ledger.vaults() }
        for vault in vaults {
            found += try await ledger.clearedRecords(vault: vault)
        }
        if json {
            print(try JSONOutput.string(found.map(ClearedRecordOutput.init)))
        } else if found.isEmpty {
            print("no cleared records")
        } else {
            for cleared in found {
                let record = cleared.record
                print(
                    "\(record.id) \(OutsideText.escaped(record.vaultId)) \(record.kind.rawValue) \(ISO8601.string(from: record.timestamp)): "
                        + "cleared by \(ClearText.device(cleared.device, cleared.clearedBy)) at \(ISO8601.string(millis: cleared.clearedAtMillis)), "
                        + "restorable until \(ISO8601.string(from: cleared.restorableUntil))"
                )
            }
        }
    }
}

struct RestoreCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore cleared records on every device: the ones named, or --all of a vault.",
        discussion: "A restore is a write: every device that syncs with this one shows the records again."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "Ids of cleared records (as `txledger cleared` lists them).") var ids: [String] = []
    @Flag(help: "Restore every cleared record of the vault.") var all = false
    @Option(help: "The vault.") var vault: String
    @Flag(help: "Print the restored records as JSON.") var json = false

    func validate() throws {
        guard all != !ids.isEmpty else { throw ValidationError("name the records to restore, or give --all") }
        if let bad = ids.first(where: { TransactionID($0.lowercased()) == nil }) {
            throw ValidationError("'\(OutsideText.escaped(String(bad.prefix(40))))' is not a record id (32 hex digits)")
        }
    }

    func run(on ledger: Ledger) async throws {
        let restored = try await ledger.restoreCleared(
            vault: vault,
            ids: all ? nil : ids.compactMap { TransactionID($0.lowercased()) }
        )
        if json {
            print(try JSONOutput.string(restored))
        } else {
            print(
                "restored \(restored.count) record\(restored.count == 1 ? "" : "s") of vault \(OutsideText.escaped(vault))"
            )
        }
    }
}

/// `cleared --json`: one object per record.
struct ClearedRecordOutput: Encodable {
    let record: TransactionRecord
    let clearedBy: String
    let device: String?
    let clearedAt: String
    let restorableUntil: String

    init(_ cleared: ClearedRecord) {
        record = cleared.record
        clearedBy = cleared.clearedBy.description
        device = cleared.device
        clearedAt = ISO8601.string(millis: cleared.clearedAtMillis)
        restorableUntil = ISO8601.string(from: cleared.restorableUntil)
    }
}
