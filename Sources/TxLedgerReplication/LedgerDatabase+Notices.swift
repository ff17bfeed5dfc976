import TxLedgerBundle
import TxLedgerCore
import TxLedgerMembership
import TxLedgerStore

/// Membership notices (Specs/devices.md, "Membership notices"): a vault's log alone, sealed
/// for every device it ever added, so that a removed device learns of its removal and two
/// devices that removed each other learn both removals.
extension LedgerDatabase {
    /// What reading a notice did.
    package struct NoticeImport: Sendable {
        package let vault: String
        /// Records whose registers a cut the notice brought refused, set aside.
        package let writesSetAside: Int
    }

    /// Writes `vault`'s notice at `path`, signed by this device (a member or a removed one),
    /// sealed for every device an add of the log names (members, removed devices, and devices
    /// whose add a removal cut off) and the recovery identities.
    package func writeNotice(vault: String, to path: String, credentials: BundleCredentials) async throws {
        try await read { store in
            guard let log = try store.membershipLog(vault) else { return }
            let (device, membership, section) = try credentials.signer(of: log)
            try MembershipNotice.write(
                vault: vault,
                devices: section,
                author: device,
                recipients: log.addedIdentities + membership.recovery,
                to: path
            )
        }
    }

    /// Whether the file at `path` is this device's notice of `vault` as its log stands: it
    /// opens, carries the log held here (the same operations) and is signed by this device. A
    /// missing, damaged, older or foreign file is not.
    package func holdsCurrentNotice(vault: String, at path: String, credentials: BundleCredentials) async throws -> Bool
    {
        guard let device = credentials.device, let log = try await read({ try $0.membershipLog(vault) }),
            let (header, keys) = try? await credentials.open(path, followingLinks: false, vaults: [vault])
        else { return false }
        return try await DedicatedThread.run {
            guard let reader = try? BundleReader(path: path, expecting: header, keys: keys, followingLinks: false),
                let (read, section) = try? MembershipNotice.read(reader)
            else { return false }
            return read == vault && MembershipLog.digest(of: section.operations.map(\.id)) == log.digest
                && reader.verifySignature(author: device.publicIdentity)
        }
    }

    /// Reads the notice at `path` and merges its log, if `admitting` accepts its vault: its
    /// author must be a member or a removed device of the merged log, and its signature must
    /// verify, else nothing is kept.
    package func importNotice(
        at path: String,
        credentials: BundleCredentials,
        vaults: [String],
        admitting: @escaping @Sendable (String) -> Bool
    ) async throws -> NoticeImport? {
        let held = try await read { try $0.vaults() }
        let (header, keys) = try await credentials.open(
            path,
            followingLinks: false,
            vaults: Array(Set(held + vaults)).sorted()
        )
        return try await write { transaction -> NoticeImport? in
            let reader = try BundleReader(path: path, expecting: header, keys: keys, followingLinks: false)
            let (vault, section) = try MembershipNotice.read(reader)
            guard admitting(vault) else { return nil }
            var report = MergeReport()
            let admission = try transaction.admit(section, vault: vault, report: &report)
            guard reader.verifySignature(author: admission.author) else { throw BundleError.badSignature }
            return NoticeImport(vault: vault, writesSetAside: report.writesSetAside)
        }
    }
}
