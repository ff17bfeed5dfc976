import TxLedgerCore
import TxLedgerSodium

/// One signed operation of a vault's membership log (Specs/devices.md, "Operations"): who
/// signed it, what it changes, and the operations its author had seen (its parents). Made by
/// `signed(_:…)`, or read back from its encoding with `init(encoded:)`, which checks the
/// signature; an operation is never changed.
public struct MembershipOperation: Hashable, Sendable {
    /// Who signed an operation.
    public enum Author: Hashable, Sendable {
        /// A device, by its public identity (the operation counts only if the evaluation finds
        /// it a member where the operation stands).
        case device(PublicIdentity)
        /// The vault's recovery secret, by the public identity it derives.
        case recovery(PublicIdentity)

        /// The signer's public identity.
        public var identity: PublicIdentity {
            switch self {
            case let .device(identity), let .recovery(identity): identity
            }
        }
    }

    public let vault: String
    public let author: Author
    /// The author's stamp time when it signed (crdt.md, "Stamps"): it orders names.
    public let time: UInt64
    /// The ids of the operations the author held that no other held operation descends from,
    /// in increasing order.
    public let parents: [OperationID]
    public let change: MembershipChange
    /// The author's Ed25519 signature over `"TXLMSIG1" || bytes`.
    public let signature: [UInt8]
    /// The operation's bytes, without the signature.
    package let bytes: [UInt8]
    /// `BLAKE2b-256(bytes || signature)`.
    public let id: OperationID

    /// The most parents an operation names.
    public static let maxParents = 64
    /// The longest name, in UTF-8 bytes.
    public static let maxNameBytes = 64
    static let magic = Array("TXLMOP1".utf8)
    static let signatureContext = Array("TXLMSIG1".utf8)

    private init(
        vault: String,
        author: Author,
        time: UInt64,
        parents: [OperationID],
        change: MembershipChange,
        signature: [UInt8],
        bytes: [UInt8]
    ) {
        self.vault = vault
        self.author = author
        self.time = time
        self.parents = parents
        self.change = change
        self.signature = signature
        self.bytes = bytes
        id = OperationID(bytes: Sodium.genericHash(bytes + signature, outputLength: OperationID.byteCount))
    }

    /// `change`, signed by a device (`asRecovery` false) or by the recovery secret whose
    /// identity `signer` is.
    /// - Throws: `LedgerError.invalidInput` for a vault id or a name that is not one line of
    ///   the allowed length, or more than `maxParents` parents.
    package static func signed(
        _ change: MembershipChange,
        vault: String,
        time: UInt64,
        parents: Set<OperationID>,
        by signer: DeviceIdentity,
        asRecovery: Bool = false
    ) throws -> MembershipOperation {
        _ = try TextField.identifier.validate(vault, field: "vault")
        switch change {
        case let .add(_, name, _), let .rename(_, name):
            _ = try TextField.line(max: maxNameBytes).validate(name, field: "name")
        case .remove, .rotateRecovery: break
        }
        guard parents.count <= maxParents else {
            throw LedgerError.invalidInput(field: "parents", reason: "more than \(maxParents)")
        }
        let author: Author = asRecovery ? .recovery(signer.publicIdentity) : .device(signer.publicIdentity)
        let sorted = parents.sorted()
        let bytes = encode(vault: vault, author: author, time: time, parents: sorted, change: change)
        return MembershipOperation(
            vault: vault,
            author: author,
            time: time,
            parents: sorted,
            change: change,
            signature: signer.sign(signatureContext + bytes),
            bytes: bytes
        )
    }

    /// The operation's bytes followed by its signature, as a change set carries it.
    public var encoded: [UInt8] { bytes + signature }

    /// Reads an operation back from `encoded`, checking its form and its signature.
    /// - Throws: `BundleError.malformedContent` saying what is wrong.
    public init(encoded: [UInt8]) throws {
        guard encoded.count > SigningKeyPair.signatureCount else {
            throw BundleError.malformedContent("a membership operation is too short")
        }
        let bytes = Array(encoded.dropLast(SigningKeyPair.signatureCount))
        let signature = Array(encoded.suffix(SigningKeyPair.signatureCount))
        var source = FrameBytes(bytes, unit: "a membership operation")
        guard try source.readBytes(Self.magic.count) == Self.magic else {
            throw BundleError.malformedContent("a membership operation does not start with TXLMOP1")
        }
        let vault = try Self.name(try source.readText(limit: 256), max: 256, "vault id")
        let kind = try source.readByte()
        let authorKind = try source.readByte()
        let signer = try Self.identity(&source)
        let author: Author
        switch authorKind {
        case 1: author = .device(signer)
        case 2: author = .recovery(signer)
        default: throw BundleError.malformedContent("a membership operation's author kind \(authorKind) is unknown")
        }
        let time = try source.readID64()
        let parentCount = try source.readCount(limit: Self.maxParents, "a membership operation's parent count")
        var parents: [OperationID] = []
        for _ in 0..<parentCount {
            let parent = OperationID(bytes: try source.readBytes(OperationID.byteCount))
            guard parents.last.map({ $0 < parent }) ?? true else {
                throw BundleError.malformedContent("a membership operation's parents are not in increasing order")
            }
            parents.append(parent)
        }
        let change: MembershipChange
        switch kind {
        case 1:
            let identity = try Self.identity(&source)
            let name = try Self.name(try source.readText(limit: Self.maxNameBytes), max: Self.maxNameBytes, "name")
            change = .add(identity, name: name, replica: try Self.replica(&source))
        case 2:
            let device = DeviceID(bytes: try source.readBytes(DeviceID.byteCount))
            let cut = RemovalCut(replica: try Self.replica(&source), time: try source.readID64())
            let recovery: PublicIdentity?
            switch try source.readByte() {
            case 0: recovery = nil
            case 1: recovery = try Self.identity(&source)
            case let flag: throw BundleError.malformedContent("a removal's recovery flag is \(flag)")
            }
            change = .remove(device, cut: cut, newRecovery: recovery)
        case 3:
            let device = DeviceID(bytes: try source.readBytes(DeviceID.byteCount))
            let name = try Self.name(try source.readText(limit: Self.maxNameBytes), max: Self.maxNameBytes, "name")
            change = .rename(device, name: name)
        case 4:
            change = .rotateRecovery(try Self.identity(&source))
        default:
            throw BundleError.malformedContent("a membership operation's kind \(kind) is unknown")
        }
        guard source.isAtEnd else {
            throw BundleError.malformedContent("a membership operation has bytes after its body")
        }
        guard signer.verifies(signature, of: Self.signatureContext + bytes) else {
            throw BundleError.malformedContent("a membership operation's signature does not verify")
        }
        self.init(
            vault: vault,
            author: author,
            time: time,
            parents: parents,
            change: change,
            signature: signature,
            bytes: bytes
        )
    }

    private static func encode(
        vault: String,
        author: Author,
        time: UInt64,
        parents: [OperationID],
        change: MembershipChange
    ) -> [UInt8] {
        var bytes = magic
        bytes.appendText(vault)
        bytes.append(change.kind)
        switch author {
        case let .device(identity):
            bytes.append(1)
            bytes += identity.bytes
        case let .recovery(identity):
            bytes.append(2)
            bytes += identity.bytes
        }
        bytes.appendBigEndian(time, width: 8)
        bytes.appendUVarint(UInt64(parents.count))
        for parent in parents { bytes += parent.bytes }
        switch change {
        case let .add(identity, name, replica):
            bytes += identity.bytes
            bytes.appendText(name)
            bytes.appendBigEndian(UInt64(replica.rawValue), width: 8)
        case let .remove(device, cut, recovery):
            bytes += device.bytes
            bytes.appendBigEndian(UInt64(cut.replica.rawValue), width: 8)
            bytes.appendBigEndian(cut.time, width: 8)
            if let recovery {
                bytes.append(1)
                bytes += recovery.bytes
            } else {
                bytes.append(0)
            }
        case let .rename(device, name):
            bytes += device.bytes
            bytes.appendText(name)
        case let .rotateRecovery(identity):
            bytes += identity.bytes
        }
        return bytes
    }

    private static func identity(_ source: inout FrameBytes) throws -> PublicIdentity {
        try PublicIdentity(bytes: try source.readBytes(2 * PublicIdentity.keyCount))
    }

    private static func replica(_ source: inout FrameBytes) throws -> ReplicaID {
        let raw = try source.readID64()
        guard raw <= UInt64(Int64.max) else {
            throw BundleError.malformedContent("a membership operation's replica id has its top bit set")
        }
        return ReplicaID(rawValue: Int64(raw))
    }

    /// `text` if it is one line of 1 to `max` bytes.
    private static func name(_ text: String, max: Int, _ what: String) throws -> String {
        do {
            return try TextField.line(max: max).validate(text, field: what)
        } catch {
            throw BundleError.malformedContent("a membership operation's \(what) is not one line of 1 to \(max) bytes")
        }
    }
}
