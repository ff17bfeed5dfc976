import Foundation
import TxLedgerSodium

/// The names of files in a sync folder (Specs/folder-sync.md, "Names"): `txl-`, 24 random
/// lowercase hex digits, `.txb`. A name says nothing of the vault, the device or the secret;
/// each file is written once, under a name nobody else uses, and never changed.
enum FolderFileName {
    /// What a name in the folder is to a sync.
    enum Kind: Equatable {
        /// A file a sync writes and reads.
        case bundle
        /// A copy a cloud service made of one ("name (1).txb", "name (X's conflicted copy).txb",
        /// "name.sync-conflict-….txb"): skipped, since the original is there.
        case conflictCopy
        /// An iCloud placeholder (".name.icloud") of a file not downloaded yet.
        case placeholder
        /// Anything else: another program's file, a hidden or temporary file. Ignored.
        case other
    }

    static let prefix = "txl-", suffix = ".txb"
    private static let randomDigits = 24

    /// A new name, from libsodium's random bytes.
    static func random() -> String {
        prefix + Sodium.randomBytes(randomDigits / 2).map { String(format: "%02x", $0) }.joined() + suffix
    }

    static func kind(of name: String) -> Kind {
        if isBundle(name) { return .bundle }
        if name.hasPrefix("." + prefix) && name.hasSuffix(".icloud") { return .placeholder }
        if name.hasPrefix(prefix) && name.utf8.count > prefix.utf8.count + randomDigits
            && isHex(name.utf8.dropFirst(prefix.utf8.count).prefix(randomDigits))
        {
            return .conflictCopy
        }
        return .other
    }

    private static func isBundle(_ name: String) -> Bool {
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
