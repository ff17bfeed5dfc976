import Foundation
import TxLedger

/// devices.*: what device keys cost (Specs/devices.md).
/// - `devices.import_signed.100k`: importing a full bundle of `sizes.batch` records sealed for
///   the vault's devices and signed (format 5, opened with the recovery secret) into a fresh
///   ledger; baseline: the same records in a bundle sealed with the shared secret, imported the
///   same way in the same run. Six of each, in ABBA order; medians.
/// - `devices.folder_key_bytes`: five devices with `sizes.small` records each synced through a
///   folder until quiet with device keys: the bytes of keys per device, the stanzas (a count
///   and 80 bytes per recipient, read from each file's header) and the signature (64) of its
///   files; bound 1 KB.
/// - `devices.folder_extra_bytes`: the folder's bytes per device beyond those of the same
///   devices synced with the shared secret: the keys, and the membership log each file carries.
struct DeviceKeysScenario {
    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport
    static let devices = 5

    func run() async throws {
        try await signedImport()
        try await folderBytes()
    }

    private func signedImport() async throws {
        let key = SyncKey.generate()
        let secret = BundleSecret.syncKey(key)
        let ledger = try Ledger(
            path: try files.freshLedger("devices.sqlite"),
            options: .init(deviceKeys: FileDeviceKeyStore(path: fresh("devices.device")))
        )
        let workload = Workload(vault: "main", count: sizes.batch, salt: 7)
        for start in stride(from: 0, to: sizes.batch, by: BenchSizes.recordsPerBatch) {
            try await ledger.record(
                try (start..<min(start + BenchSizes.recordsPerBatch, sizes.batch)).map(workload.record)
            )
        }
        let unsigned = files.path("unsigned.txb")
        let signed = files.path("signed.txb")
        try await ledger.exportBundle(vault: "main", to: unsigned, secret: secret, scope: .full)
        try await ledger.initDevices(vault: "main", secret: secret, name: "bench")
        try await ledger.exportBundle(vault: "main", to: signed, scope: .full)

        var plain: [Double] = []
        var sealed: [Double] = []
        // In ABBA order, so that whichever import comes second in a pair (after the other's
        // file was written and removed) is each kind as often.
        for round in 0..<6 {
            if round % 2 == 0 {
                plain.append(try await importTime(unsigned, secret: secret))
                sealed.append(try await importTime(signed, secret: secret))
            } else {
                sealed.append(try await importTime(signed, secret: secret))
                plain.append(try await importTime(unsigned, secret: secret))
            }
        }
        report.add(
            "devices.import_signed.100k",
            .cost(
                Stopwatch.median(of: sealed),
                unit: "s",
                baseline: Stopwatch.median(of: plain),
                name: "importing the same records sealed with the shared secret"
            )
        )
        files.discard("devices.sqlite", "import.sqlite")
        for file in [unsigned, signed, files.path("devices.device")] {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    /// Seconds to import `bundle` into a fresh ledger, checking that every record arrived.
    private func importTime(_ bundle: String, secret: BundleSecret) async throws -> Double {
        let fresh = try Ledger(path: try files.freshLedger("import.sqlite"))
        var imported: BundleImport?
        let time = try await Stopwatch.seconds {
            imported = try await fresh.importBundle(at: bundle, secret: secret, vault: "main")
        }
        guard imported?.report.recordsAdded == sizes.batch else {
            throw BenchFailure(description: "devices: an import did not add every record")
        }
        return time
    }

    private func folderBytes() async throws {
        let secret = BundleSecret.syncKey(.generate())
        let shared = try await settledFolder("shared", secret: secret, deviceKeys: false)
        let keyed = try await settledFolder("keyed", secret: secret, deviceKeys: true)
        report.add(
            "devices.folder_key_bytes",
            .cost(Double(keyed.keyBytes) / Double(Self.devices), unit: "B", baseline: 1024, name: "1 KB per device")
        )
        report.add(
            "devices.folder_extra_bytes",
            .cost(
                Double(keyed.bytes - shared.bytes) / Double(Self.devices),
                unit: "B",
                baseline: Double(shared.bytes) / Double(Self.devices),
                name: "the folder's bytes per device with the shared secret"
            )
        )
    }

    /// The bytes of a folder through which five devices with `sizes.small` records each synced
    /// until a whole round changed nothing, and those of its files' stanzas and signatures.
    private func settledFolder(
        _ name: String,
        secret: BundleSecret,
        deviceKeys: Bool
    ) async throws -> (bytes: Int, keyBytes: Int) {
        let folder = files.path("folder-" + name)
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var ledgers: [Ledger] = []
        for device in 0..<Self.devices {
            let keys = deviceKeys ? FileDeviceKeyStore(path: fresh("\(name)-\(device).device")) : nil
            let ledger = try Ledger(
                path: try files.freshLedger("\(name)-\(device).sqlite"),
                options: .init(deviceKeys: keys, deviceName: "device \(device)")
            )
            let workload = Workload(vault: "main", count: sizes.small, salt: 200 + UInt64(device))
            try await ledger.record(try (0..<sizes.small).map(workload.record))
            ledgers.append(ledger)
        }
        if deviceKeys { try await ledgers[0].initDevices(vault: "main", secret: secret, name: "device 0") }
        try await FolderRounds.settle(ledgers, folder: folder, secret: secret, maxRounds: 8, scenario: "devices")
        if deviceKeys, try await ledgers[Self.devices - 1].devices(vault: "main")?.members.count != Self.devices {
            throw BenchFailure(description: "devices: not every device joined")
        }
        var bytes = 0
        var keyBytes = 0
        for entry in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let contents = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + entry))
            bytes += contents.count
            // Format 5 (devices.md): the stanza count is the 2 bytes after the 78-byte header.
            if deviceKeys, contents.count > 80 {
                let stanzas = Int(contents[78]) << 8 | Int(contents[79])
                keyBytes += 2 + 80 * stanzas + 64
            }
        }
        if !files.keepsFiles {
            try? FileManager.default.removeItem(atPath: folder)
            for device in 0..<Self.devices {
                files.remove("\(name)-\(device).sqlite")
                try? FileManager.default.removeItem(atPath: files.path("\(name)-\(device).device"))
            }
        }
        return (bytes, keyBytes)
    }

    /// A path in the run's directory with no file at it.
    private func fresh(_ name: String) -> String {
        try? FileManager.default.removeItem(atPath: files.path(name))
        return files.path(name)
    }
}
