import TxLedger

/// The documented exit codes (sysexits.h values; see Specs/cli.md).
enum ExitStatus {
    static let invalidInput: Int32 = 65
    static let notFound: Int32 = 66
    static let ledgerFailure: Int32 = 74
    static let bundleDamaged: Int32 = 76
    static let wrongSecret: Int32 = 77
    static let notABundle: Int32 = 78

    static func code(for error: LedgerError) -> Int32 {
        switch error.code {
        case .invalidInput, .invalidCursor: invalidInput
        case .notFound, .unknownPeer, .unknownVault, .ambiguous: notFound
        default: ledgerFailure
        }
    }

    static func code(for error: BundleError) -> Int32 {
        switch error.code {
        case .invalidKey, .invalidPassphrase: invalidInput
        case .headerTampered, .payloadTampered, .truncated, .trailingData, .malformedContent, .badSignature,
            .notAMember:
            bundleDamaged
        case .wrongSecret, .secretKindMismatch, .notARecipient: wrongSecret
        case .notABundle, .unsupportedVersion: notABundle
        default: ledgerFailure
        }
    }
}
