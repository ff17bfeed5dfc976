#if canImport(Clibsodium)
internal import Clibsodium
#else
internal import CSodium
#endif

/// How hard Argon2id works to turn a passphrase into a key: libsodium's presets, or the values
/// a bundle header carries. Stored in each passphrase bundle, so a reader needs nothing else.
public struct Argon2idCost: Hashable, Sendable {
    /// Passes over memory (`opslimit`).
    public let operations: UInt64
    /// Memory in bytes (`memlimit`).
    public let memoryBytes: UInt64

    public init(operations: UInt64, memoryBytes: UInt64) {
        self.operations = operations
        self.memoryBytes = memoryBytes
    }

    /// For interactive use and tests (libsodium's INTERACTIVE: 2 passes, 64 MiB).
    public static var interactive: Argon2idCost {
        Argon2idCost(
            operations: UInt64(crypto_pwhash_opslimit_interactive()),
            memoryBytes: UInt64(crypto_pwhash_memlimit_interactive())
        )
    }

    /// The default (libsodium's MODERATE: 3 passes, 256 MiB).
    public static var moderate: Argon2idCost {
        Argon2idCost(
            operations: UInt64(crypto_pwhash_opslimit_moderate()),
            memoryBytes: UInt64(crypto_pwhash_memlimit_moderate())
        )
    }

    /// For long-term secrets on a capable machine (libsodium's SENSITIVE: 4 passes, 1 GiB).
    public static var sensitive: Argon2idCost {
        Argon2idCost(
            operations: UInt64(crypto_pwhash_opslimit_sensitive()),
            memoryBytes: UInt64(crypto_pwhash_memlimit_sensitive())
        )
    }

    /// Whether a reader accepts this cost from a bundle: libsodium's Argon2id minimums up to
    /// SENSITIVE's memory and 10 passes, so a forged header cannot make a reader allocate or
    /// compute without bound (Specs/bundle-format.md).
    var isAcceptable: Bool {
        Self.acceptsOperations(operations) && Self.acceptsMemory(memoryBytes)
    }

    /// Each bound alone, for a header cut short after its `opslimit`.
    package static func acceptsOperations(_ operations: UInt64) -> Bool {
        (UInt64(crypto_pwhash_opslimit_min())...10).contains(operations)
    }

    package static func acceptsMemory(_ memoryBytes: UInt64) -> Bool {
        (UInt64(crypto_pwhash_memlimit_min())...sensitive.memoryBytes).contains(memoryBytes)
    }
}
