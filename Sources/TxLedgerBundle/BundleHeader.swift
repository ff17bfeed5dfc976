import TxLedgerCore
import TxLedgerSodium

/// The fixed 110-byte header of a bundle (Specs/bundle-format.md, "Header"), the same in
/// formats 1 to 4, which differ only in the payload:
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 8 | magic `TXLBUNDL` |
/// | 8 | 1 | format version, 1 to 4 |
/// | 9 | 1 | key mode: 1 sync key, 2 passphrase |
/// | 10 | 4 | Argon2id opslimit, big-endian (0 with a sync key) |
/// | 14 | 8 | Argon2id memlimit in bytes, big-endian (0 with a sync key) |
/// | 22 | 16 | salt, random per bundle |
/// | 38 | 16 | key check |
/// | 54 | 24 | secretstream header |
/// | 78 | 32 | header MAC over bytes 0..<78 |
package struct BundleHeader: Equatable, Sendable {
    static let magic = Array("TXLBUNDL".utf8)
    /// The format writers use.
    static let currentVersion: UInt8 = FrameDecoder.currentVersion
    /// The formats readers accept.
    static let readableVersions: ClosedRange<UInt8> = 1...4
    static let saltBytes = 16
    static let keyCheckBytes = 16
    static let size = 110

    /// Which payload encoding follows (Specs/bundle-format.md, "Payload"); the MAC covers it.
    let version: UInt8
    let mode: KeyMode
    /// The Argon2id cost with a passphrase; `nil` with a sync key.
    let cost: Argon2idCost?
    let salt: [UInt8]
    let keyCheck: [UInt8]
    let streamHeader: [UInt8]
    /// The MAC of `authenticatedBytes` (`BundleKeys.seal` sets it).
    var mac: [UInt8]

    /// Bytes 0..<78: everything the MAC covers.
    var authenticatedBytes: [UInt8] {
        var bytes = Self.magic + [version, mode.rawValue]
        bytes.appendBigEndian(cost?.operations ?? 0, width: 4)
        bytes.appendBigEndian(cost?.memoryBytes ?? 0, width: 8)
        return bytes + salt + keyCheck + streamHeader
    }

    var bytes: [UInt8] { authenticatedBytes + mac }
}

extension BundleHeader {
    /// Parses the header's layout, checking what needs no key: magic, version, key mode and
    /// the Argon2id cost's bounds, each as soon as its bytes are whole, so that a header cut
    /// short is `truncated` only if what it has passes (bundle-format.md, "Reading").
    /// - Parameter bytes: the first `size` bytes of the file, or all of it if it is shorter.
    init(parsing bytes: [UInt8]) throws {
        guard bytes.count >= Self.magic.count, bytes.starts(with: Self.magic) else { throw BundleError.notABundle }
        guard bytes.count > 8 else { throw BundleError.truncated }
        guard Self.readableVersions.contains(bytes[8]) else {
            throw BundleError.unsupportedVersion("format version \(bytes[8])")
        }
        guard bytes.count > 9 else { throw BundleError.truncated }
        guard let mode = KeyMode(rawValue: bytes[9]) else {
            throw BundleError.unsupportedVersion("key mode \(bytes[9])")
        }
        guard bytes.count >= 14 else { throw BundleError.truncated }
        let operations = UInt64(bigEndian: bytes[10..<14])
        guard mode == .syncKey ? operations == 0 : Argon2idCost.acceptsOperations(operations) else {
            throw BundleError.unsupportedVersion(
                mode == .syncKey
                    ? "KDF parameters with a sync key" : "Argon2id passes beyond the accepted bounds (\(operations))"
            )
        }
        guard bytes.count >= 22 else { throw BundleError.truncated }
        let memory = UInt64(bigEndian: bytes[14..<22])
        guard mode == .syncKey ? memory == 0 : Argon2idCost.acceptsMemory(memory) else {
            throw BundleError.unsupportedVersion(
                mode == .syncKey
                    ? "KDF parameters with a sync key" : "Argon2id memory beyond the accepted bounds (\(memory) bytes)"
            )
        }
        guard bytes.count >= Self.size else { throw BundleError.truncated }
        cost = mode == .syncKey ? nil : Argon2idCost(operations: operations, memoryBytes: memory)
        version = bytes[8]
        self.mode = mode
        salt = Array(bytes[22..<38])
        keyCheck = Array(bytes[38..<54])
        streamHeader = Array(bytes[54..<78])
        mac = Array(bytes[78..<110])
    }
}
