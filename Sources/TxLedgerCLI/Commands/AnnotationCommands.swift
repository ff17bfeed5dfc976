import ArgumentParser
import TxLedger

struct NoteCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Set the note of a transaction (an empty TEXT removes it)."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "Record id or transaction hash.") var idOrHash: String
    @Argument(help: "The note.") var text: String

    func run(on ledger: Ledger) async throws {
        let record = try await ledger.resolve(idOrHash)
        try await ledger.setNote(text.isEmpty ? nil : text, for: record.id)
        print(text.isEmpty ? "\(record.id): note removed" : "\(record.id): note set")
    }
}

struct LabelCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Replace the labels of a transaction (none removes them all)."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "Record id or transaction hash.") var idOrHash: String
    @Argument(help: "The labels.") var labels: [String] = []

    func run(on ledger: Ledger) async throws {
        let record = try await ledger.resolve(idOrHash)
        let updated = try await ledger.setLabels(labels, for: record.id)
        print("\(record.id): labels [\(updated.labels.joined(separator: ", "))]")
    }
}

/// `hide` and `unhide`: one body, two command names.
protocol VisibilityCommand: LedgerCommand {
    static var hides: Bool { get }
    var idOrHash: String { get }
}

extension VisibilityCommand {
    func run(on ledger: Ledger) async throws {
        let record = try await ledger.resolve(idOrHash)
        try await ledger.setHidden(Self.hides, for: record.id)
        print("\(record.id): \(Self.hides ? "hidden" : "visible")")
    }
}

struct HideCommand: VisibilityCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide",
        abstract: "Hide a transaction from listings (list --include-hidden still shows it)."
    )
    static let hides = true

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "Record id or transaction hash.") var idOrHash: String
}

struct UnhideCommand: VisibilityCommand {
    static let configuration = CommandConfiguration(commandName: "unhide", abstract: "Show a hidden transaction again.")
    static let hides = false

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "Record id or transaction hash.") var idOrHash: String
}
