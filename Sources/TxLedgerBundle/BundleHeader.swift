import TxLedgerCore
import TxLedgerSodium

/// The header of a bundle (Specs/bundle-format.md, "Header"): 110 bytes with a sync key or a
/// passphrase, in every format (they differ only in the payload); with device keys (key mode
/// 3, format 5 only: Specs/devices.md, "Format 5") the recipient stanzas come between the
/// secretstream header and the MAC, which covers them:
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 8 | magic `TXLBUNDL` |
/// | 8 | 1 | format version, 1 to 5 |
/// | 9 | 1 | key mode: 1 sync key, 2 passphrase |
/// | 10 | 4 | Argon2id opslimit, big-endian (0 with a sync key) |
/// | 14 | 8 | Argon2id memlimit in bytes, big-endian (0 with a sync key) |
/// | 22 | 16 | salt, random per bundle |
/// | 38 | 16 | key check |
/// | 54 | 24 | secretstream header |
/// | 78 | 32 | header MAC over bytes 0..<78 |
///
/// Format 5, key mode 3 (device keys), both Argon2id fields 0: bytes 0..<78 as above, then the
/// stanzas (`RecipientStanzas`: a 2-byte count and 80 bytes each), then the MAC over
/// everything before it.
package struct BundleHeader: Equatable, Sendable {
    static let magic = Array("TXLBUNDL".utf8)
    /// The format writers use.
    static let currentVersion: UInt8 = FrameDecoder.currentVersion
    /// The first format of bundles sealed for the vault's devices (key mode 3).
    static let deviceKeysVersion: UInt8 = 5
    /// The formats readers accept.
    static let readableVersions: ClosedRange<UInt8> = 1...5
    static let saltBytes = 16
    static let keyCheckBytes = 16
    /// The size of a format 1 to 4 header, and of what a reader reads first.
    static let size = 110
    /// Where the stanzas of a format 5 header start.
    static let stanzasOffset = 78
    static let macBytes = 32

    /// Which payload encoding follows (Specs/bundle-format.md, "Payload"); the MAC covers it.
    let version: UInt8
    package let mode: KeyMode
    /// The Argon2id cost with a passphrase; `nil` with a sync key.
    let cost: Argon2idCost?
    let salt: [UInt8]
    let keyCheck: [UInt8]
    let streamHeader: [UInt8]
    /// The file key sealed for each recipient (format 5, device keys); `nil` otherwise.
    let stanzas: RecipientStanzas?
    /// The MAC of `authenticatedBytes` (`BundleKeys.seal` sets it).
    var mac: [UInt8]

    /// Everything the MAC covers: bytes 0..<78, and the stanzas in format 5.
    var authenticatedBytes: [UInt8] {
        var bytes = Self.magic + [version, mode.rawValue]
        bytes.appendBigEndian(cost?.operations ?? 0, width: 4)
        bytes.appendBigEndian(cost?.memoryBytes ?? 0, width: 8)
        return bytes + salt + keyCheck + streamHeader + (stanzas?.bytes ?? [])
    }

    var bytes: [UInt8] { authenticatedBytes + mac }

    /// The header's size in the file.
    var size: Int { Self.size + (stanzas?.bytes.count ?? 0) }

    /// How many bytes the header whose first bytes are `prefix` takes: 110, or for a format 5
    /// header whose stanza count is in `prefix`, its whole size; `nil` if `prefix` is too short
    /// to tell (the parse then reports what is wrong).
    static func size(ofHeaderStartingWith prefix: [UInt8]) -> Int? {
        guard prefix.count > 9, prefix[9] == KeyMode.deviceKeys.rawValue else { return size }
        guard prefix.count >= stanzasOffset + 2 else { return nil }
        let count = Int(UInt64(bigEndian: prefix[stanzasOffset..<stanzasOffset + 2]))
        guard (1...RecipientStanzas.maxCount).contains(count) else { return size }
        return stanzasOffset + 2 + count * RecipientStanzas.stanzaBytes + macBytes
    }
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
        // Device keys came with format 5: no older format has them.
        guard mode != .deviceKeys || bytes[8] >= Self.deviceKeysVersion else {
            throw BundleError.unsupportedVersion("format version \(bytes[8]) with key mode \(mode.rawValue)")
        }
        guard bytes.count >= 14 else { throw BundleError.truncated }
        let operations = UInt64(bigEndian: bytes[10..<14])
        guard mode != .passphrase ? operations == 0 : Argon2idCost.acceptsOperations(operations) else {
            throw BundleError.unsupportedVersion(
                mode != .passphrase
                    ? "KDF parameters with a \(mode.secretName)"
                    : "Argon2id passes beyond the accepted bounds (\(operations))"
            )
        }
        guard bytes.count >= 22 else { throw BundleError.truncated }
        let memory = UInt64(bigEndian: bytes[14..<22])
        guard mode != .passphrase ? memory == 0 : Argon2idCost.acceptsMemory(memory) else {
            throw BundleError.unsupportedVersion(
                mode != .passphrase
                    ? "KDF parameters with a \(mode.secretName)"
                    : "Argon2id memory beyond the accepted bounds (\(memory) bytes)"
            )
        }
        guard bytes.count >= Self.size else { throw BundleError.truncated }
        cost = mode == .passphrase ? Argon2idCost(operations: operations, memoryBytes: memory) : nil
        version = bytes[8]
        self.mode = mode
        salt = Array(bytes[22..<38])
        keyCheck = Array(bytes[38..<54])
        streamHeader = Array(bytes[54..<78])
        if mode == .deviceKeys {
            let count = Int(UInt64(bigEndian: bytes[Self.stanzasOffset..<Self.stanzasOffset + 2]))
            guard (1...RecipientStanzas.maxCount).contains(count) else {
                throw BundleError.unsupportedVersion("\(count) recipients; 1 to \(RecipientStanzas.maxCount) are read")
            }
            guard let size = Self.size(ofHeaderStartingWith: bytes), bytes.count >= size else {
                throw BundleError.truncated
            }
            var source = FrameBytes(Array(bytes[Self.stanzasOffset..<size - Self.macBytes]), unit: "a bundle header")
            stanzas = try RecipientStanzas(reading: &source)
            mac = Array(bytes[size - Self.macBytes..<size])
        } else {
            stanzas = nil
            mac = Array(bytes[78..<110])
        }
    }
}
