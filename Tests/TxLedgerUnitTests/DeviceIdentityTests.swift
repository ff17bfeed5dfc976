import Foundation
import Testing

@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// Device identities (Specs/devices.md, "Device identity"), against the vectors that
/// scripts/device-vectors.py computes from the spec with libsodium alone.
struct DeviceIdentityTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Specs/vectors/devices")

    static func vector(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: vectors.appendingPathComponent("\(name).json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    static func identity(seedHex: String) -> DeviceIdentity {
        let seed = bytes(seedHex)
        return DeviceIdentity(seed: seed.withUnsafeBytes { SecretBytes(copying: $0) })
    }

    @Test func aSeedGivesTheSpecsKeysIdFingerprintAndPrintableForm() throws {
        let vector = try Self.vector("identity")
        let identity = Self.identity(seedHex: try #require(vector["seed"] as? String))
        let publicIdentity = identity.publicIdentity
        #expect(publicIdentity.signKey == Self.bytes(try #require(vector["signPublicKey"] as? String)))
        #expect(publicIdentity.boxKey == Self.bytes(try #require(vector["boxPublicKey"] as? String)))
        #expect(identity.deviceID.bytes == Self.bytes(try #require(vector["deviceId"] as? String)))
        #expect(identity.deviceID.description == vector["deviceIdText"] as? String)
        #expect(identity.deviceID.fingerprint == vector["fingerprint"] as? String)
        #expect(publicIdentity.printableText == vector["printable"] as? String)
        #expect(try PublicIdentity(printable: try #require(vector["printable"] as? String)) == publicIdentity)
    }

    @Test func thePrintableFormReadsBackHoweverItIsTypedAndCatchesEveryMistypedSymbol() throws {
        let identity = DeviceIdentity.generate().publicIdentity
        let text = identity.printableText
        #expect(try PublicIdentity(printable: text.lowercased().replacingOccurrences(of: "-", with: " ")) == identity)
        #expect(DeviceID(identity.deviceID.description.lowercased()) == identity.deviceID)
        let symbols = Array(text)
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        for position in symbols.indices.dropFirst(6) where symbols[position] != "-" {
            var typo = symbols
            typo[position] = alphabet[(alphabet.firstIndex(of: symbols[position])! + 1) % alphabet.count]
            #expect(throws: LedgerError.self) { try PublicIdentity(printable: String(typo)) }
        }
        let cut = #expect(throws: LedgerError.self) { try PublicIdentity(printable: String(text.dropLast(3))) }
        #expect(cut?.field == "identity")
    }

    @Test func onlyItsOwnKeyOpensABoxSealedForIt() {
        let device = DeviceIdentity.generate()
        let other = DeviceIdentity.generate()
        let key = SecretBytes.random(count: 32)
        var sealed = BoxKeyPair.seal(key, for: device.publicIdentity.boxKey)
        #expect(sealed.count == 32 + BoxKeyPair.sealOverhead)
        let opened = device.open(sealed)
        #expect(opened.map { o in o.withUnsafeBytes { a in key.withUnsafeBytes { Array(a) == Array($0) } } } == true)
        #expect(other.open(sealed) == nil)
        sealed[40] ^= 1
        #expect(device.open(sealed) == nil)
    }

    @Test func aSignatureVerifiesOnlyItsMessageUnderItsKey() {
        let device = DeviceIdentity.generate()
        let message = Array("a change set".utf8)
        let signature = device.sign(message)
        #expect(device.publicIdentity.verifies(signature, of: message))
        #expect(!device.publicIdentity.verifies(signature, of: message + [0]))
        #expect(!DeviceIdentity.generate().publicIdentity.verifies(signature, of: message))
        #expect(!device.publicIdentity.verifies(Array(signature.dropLast()), of: message))
    }

    @Test func itsSeedNeverPrints() throws {
        let seed = try #require(try Self.vector("identity")["seed"] as? String)
        let device = Self.identity(seedHex: seed)
        #expect(!"\(device)".contains(seed.prefix(16)) && !String(reflecting: device).contains(seed.prefix(16)))
    }

    @Test func aKeyFileKeepsTheIdentityPrivatelyAndIsNeverReplaced() async throws {
        let directory = try TemporaryDirectory()
        let store = FileDeviceKeyStore(path: directory.path("ledger.device-key"))
        #expect(try await store.load() == nil)
        let identity = DeviceIdentity.generate()
        try await store.save(identity)
        #expect(try await store.load()?.publicIdentity == identity.publicIdentity)
        #expect(!store.isExposed)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.hasPrefix("TXLS1-") && text.hasSuffix("\n"))
        await #expect(throws: BundleError.self) { try await store.save(DeviceIdentity.generate()) }
        #expect(try await store.load()?.publicIdentity == identity.publicIdentity)
    }

    @Test func aKeyFileThatHoldsNoSeedIsAClearError() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.privateFile("device-key", "TXLS1-NOT-A-SEED\n")
        let error = await #expect(throws: BundleError.self) { try await FileDeviceKeyStore(path: path).load() }
        #expect(error?.code == .invalidKey)
    }

    @Test func anAppKeepsTheSeedBytesAndGetsTheSameIdentityBack() throws {
        let identity = DeviceIdentity.generate()
        let kept = identity.withSeedBytes { Array($0) }
        #expect(try kept.withUnsafeBytes { try DeviceIdentity(seedBytes: $0) }.deviceID == identity.deviceID)
        #expect(throws: BundleError.self) {
            try [UInt8](repeating: 1, count: 31).withUnsafeBytes { try DeviceIdentity(seedBytes: $0) }
        }
    }
}
