import Foundation
import Testing

@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium

/// The recovery identity a vault's shared secret derives (Specs/devices.md, "The recovery
/// authority"), against the vectors scripts/device-vectors.py computes with libsodium alone.
struct RecoveryIdentityTests {
    @Test func aSyncKeyAndAPassphraseDeriveTheSpecsRecoveryIdentities() async throws {
        let vector = try DeviceIdentityTests.vector("recovery")
        let vault = try #require(vector["vault"] as? String)
        let keyBytes = DeviceIdentityTests.bytes(try #require(vector["syncKey"] as? String))
        let syncKey = SyncKey(secret: keyBytes.withUnsafeBytes { SecretBytes(copying: $0) })
        let fromKey = try await BundleSecret.syncKey(syncKey).recoveryIdentity(vault: vault)
        let expectedFromKey = try #require(vector["fromSyncKey"] as? [String: String])
        #expect(fromKey.deviceID.bytes == DeviceIdentityTests.bytes(try #require(expectedFromKey["deviceId"])))
        #expect(
            fromKey.publicIdentity.signKey == DeviceIdentityTests.bytes(try #require(expectedFromKey["signPublicKey"]))
        )

        let passphrase = try Passphrase(try #require(vector["passphrase"] as? String))
        let fromPassphrase = try await BundleSecret.passphrase(passphrase).recoveryIdentity(vault: vault)
        let expected = try #require(vector["fromPassphrase"] as? [String: String])
        #expect(fromPassphrase.deviceID.bytes == DeviceIdentityTests.bytes(try #require(expected["deviceId"])))
        #expect(
            fromPassphrase.publicIdentity.boxKey == DeviceIdentityTests.bytes(try #require(expected["boxPublicKey"]))
        )
    }

    @Test func eachVaultHasItsOwnRecoveryIdentity() async throws {
        let secret = BundleSecret.syncKey(.generate())
        let main = try await secret.recoveryIdentity(vault: "main")
        #expect(try await secret.recoveryIdentity(vault: "main").deviceID == main.deviceID)
        #expect(try await secret.recoveryIdentity(vault: "savings").deviceID != main.deviceID)
        #expect(try await BundleSecret.syncKey(.generate()).recoveryIdentity(vault: "main").deviceID != main.deviceID)
    }
}
