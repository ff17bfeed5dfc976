import Foundation
import TxLedgerMembership
import TxLedgerSodium

/// The names of files in a sync folder (Specs/folder-sync.md, "Names"): `txl-`, 24 random
/// lowercase hex digits, `.txb`. A name says nothing of the vault, the device or the secret;
/// each file is written once, under a name nobody else uses, and never changed.
enum FolderFileName {
    /// What a name in the folder is to a sync.
    enum Kind: Equatable {
        /// A file a sync writes and reads.
        case bundle
        /// A device's membership notice of a vault (`txl-` + 24 hex digits + `.txm`).
        case notice
        /// A copy a cloud service made of one ("name (1).txb", "name (X's conflicted copy).txb",
        /// "name.sync-conflict-….txb"): skipped, since the original is there.
        case conflictCopy
        /// An iCloud placeholder (".name.icloud") of a file not downloaded yet.
        case placeholder
        /// Anything else: another program's file, a hidden or temporary file. Ignored.
        case other
    }

    static let prefix = "txl-", suffix = ".txb", noticeSuffix = ".txm"
    private static let randomDigits = 24

    /// A new name, from libsodium's random bytes.
    static func random() -> String {
        prefix + Sodium.randomBytes(randomDigits / 2).map { String(format: "%02x", $0) }.joined() + suffix
    }

    /// A new name that sorts before `bound`, a name of this form (folder-sync.md, "Adopting
    /// another device's full file": a full file sorts before the other devices' full files its
    /// writer read): the 96-bit number of `bound`'s digits less a random amount, from 1 to
    /// 2^64 - 1 (2^63 on average: below a random name, room for billions of them). A random
    /// name if there is no bound, or no room below it.
    static func random(before bound: String?) -> String {
        guard let bound, kind(of: bound) == .bundle else { return random() }
        let digits = bound.dropFirst(prefix.count).prefix(randomDigits)
        guard let high = UInt32(digits.prefix(8), radix: 16), let low = UInt64(digits.dropFirst(8), radix: 16),
            high > 0 || low > 1
        else { return random() }
        let drawn = Sodium.randomBytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let step = 1 + drawn % (high > 0 ? UInt64.max : low - 1)
        let (number, borrow) = (low &- step, low < step ? UInt32(1) : 0)
        return prefix + String(format: "%08x%016llx", high - borrow, number) + suffix
    }

    /// The name of `device`'s notice of `vault`: the digits are a hash of the device's
    /// (deterministic) Ed25519 signature of the vault id, so that the name stays the same from
    /// sync to sync and says nothing of the device or the vault to whoever lists the folder.
    static func notice(of device: DeviceIdentity, vault: String) -> String {
        let signature = device.sign(Array("TXLNOTICE".utf8) + Array(vault.utf8))
        let digits = Sodium.genericHash(signature, outputLength: 16).prefix(randomDigits / 2)
        return prefix + digits.map { String(format: "%02x", $0) }.joined() + noticeSuffix
    }

    static func kind(of name: String) -> Kind {
        if isSyncFile(name, suffix: suffix) { return .bundle }
        if isSyncFile(name, suffix: noticeSuffix) { return .notice }
        if name.hasPrefix("." + prefix) && name.hasSuffix(".icloud") { return .placeholder }
        if name.hasPrefix(prefix) && name.utf8.count > prefix.utf8.count + randomDigits
            && isHex(name.utf8.dropFirst(prefix.utf8.count).prefix(randomDigits))
        {
            return .conflictCopy
        }
        return .other
    }

    private static func isSyncFile(_ name: String, suffix: String) -> Bool {
        let utf8 = name.utf8
        return utf8.count == prefix.utf8.count + randomDigits + suffix.utf8.count && name.hasPrefix(prefix)
            && name.hasSuffix(suffix)
            && isHex(utf8.dropFirst(prefix.utf8.count).prefix(randomDigits))
    }

    private static func isHex(_ digits: some Collection<UInt8>) -> Bool {
        digits.count == randomDigits
            && digits.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }
}
