import TxLedger

/// The documented exit codes (sysexits.h values; see Specs/cli.md).
enum ExitStatus {
    static let invalidInput: Int32 = 65
    static let notFound: Int32 = 66
    static let ledgerFailure: Int32 = 74

    static func code(for error: LedgerError) -> Int32 {
        switch error {
        case .invalidInput, .invalidCursor: invalidInput
        case .notFound, .ambiguous: notFound
        case .unreadableDatabase, .newerSchema, .storage: ledgerFailure
        }
    }
}
