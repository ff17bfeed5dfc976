import TxLedgerCore
import TxLedgerMembership
import TxLedgerSodium

extension BundleSecret {
    /// The recovery identity this secret derives for `vault` (Specs/devices.md, "The recovery
    /// authority"): every holder of the secret derives the same one. With a sync key,
    /// `BLAKE2b-256(message: "txledger recovery " || vault, key: syncKey)`; with a passphrase,
    /// Argon2id (libsodium's moderate cost) over a salt of `BLAKE2b-128` of the same message.
    /// Argon2id runs on a thread of its own.
    /// - Throws: `BundleError.insufficientMemory` if the system cannot give Argon2id its memory.
    package func recoveryIdentity(vault: String) async throws -> DeviceIdentity {
        let message = Array("txledger recovery ".utf8) + Array(vault.utf8)
        switch self {
        case let .syncKey(key):
            return DeviceIdentity(seed: Sodium.keyedHash(message, key: key.secret, outputLength: 32))
        case let .passphrase(passphrase):
            let cost = Argon2idCost.moderate
            return try await DedicatedThread.run {
                guard
                    let seed = Sodium.passwordHash(
                        passphrase.secret,
                        salt: Sodium.genericHash(message, outputLength: 16),
                        operations: cost.operations,
                        memoryLimit: Int(cost.memoryBytes),
                        length: 32
                    )
                else { throw BundleError.insufficientMemory(bytes: cost.memoryBytes) }
                return DeviceIdentity(seed: seed)
            }
        }
    }
}
