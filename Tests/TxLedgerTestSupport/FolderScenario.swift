import Foundation
import PropertyBased

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerFolderSync

/// A random life of several devices that sync only through one shared folder, for the folder
/// sync law (Specs/folder-sync.md): records and notes, syncs alone or two at once, the
/// folder's hazards, backups restored, devices lost and added.
struct FolderScenario: CustomStringConvertible {
    enum Hazard: CaseIterable {
        /// A copy a cloud service made of a file, under a conflict name.
        case conflictCopy
        /// A file under a valid name cut short (an upload that never completed).
        case cutUpload
        /// An iCloud placeholder.
        case placeholder
        /// A file of another sync key.
        case anotherKey
        case emptyFile
        /// A file under a valid name that is no bundle.
        case junk
    }

    enum Operation {
        case record(device: Int, tx: Int)
        case note(device: Int, tx: Int, text: String)
        case sync(device: Int)
        /// Two devices sync at the same moment.
        case syncTogether(Int, Int)
        case hazard(Hazard)
        case tick(device: Int, seconds: Int)
        case snapshot(device: Int)
        case restore(device: Int)
        case lose(device: Int)
        case join
    }

    static let maxDevices = 5

    let devices: Int
    let operations: [Operation]

    var description: String { "\(devices) devices: \(operations)" }

    static let generator = Generator<FolderScenario, Shrink.None<FolderScenario>>(run: { rng in
        func device() -> Int { Int.random(in: 0..<maxDevices, using: &rng) }
        func tx() -> Int { Int.random(in: 0..<12, using: &rng) }
        let operations: [Operation] = (0..<Int.random(in: 10...40, using: &rng)).map { _ in
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<25: .record(device: device(), tx: tx())
            case 25..<35: .note(device: device(), tx: tx(), text: "n\(Int.random(in: 0..<3, using: &rng))")
            case 35..<65: .sync(device: device())
            case 65..<73: .syncTogether(device(), device())
            case 73..<80: .hazard(Hazard.allCases.randomElement(using: &rng)!)
            case 80..<85: .tick(device: device(), seconds: Int.random(in: 1...600, using: &rng))
            case 85..<90: .snapshot(device: device())
            case 90..<94: .restore(device: device())
            case 94..<96: .lose(device: device())
            default: .join
            }
        }
        return FolderScenario(devices: Int.random(in: 2...4, using: &rng), operations: operations)
    })
}

/// Runs a folder scenario on real ledgers and a real folder.
final class FolderScenarioRun {
    let folder: TemporaryDirectory
    let secret = BundleSecret.syncKey(.generate())
    private(set) var devices: [TestLedger] = []
    private(set) var lost: Set<Int> = []
    var active: [Int] { devices.indices.filter { !lost.contains($0) } }
    private var snapshots: [Int: (copy: TestLedger, serial: Int)] = [:]
    /// What each device recorded, numbered in order; a restore or a loss takes out what may
    /// have gone with it.
    private(set) var recorded: [(id: TransactionID, device: Int, serial: Int)] = []
    private var serial = 0
    /// Records of a file in the folder that a device did not hold right after it synced.
    private(set) var missed: [String] = []

    init(_ scenario: FolderScenario) async throws {
        folder = try TemporaryDirectory()
        for _ in 0..<scenario.devices { devices.append(try await TestLedger()) }
    }

    func run(_ operations: [FolderScenario.Operation]) async throws {
        for operation in operations { try await apply(operation) }
    }

    /// Every device still in use syncs, three rounds.
    func finalRounds() async throws {
        for _ in 0..<3 {
            for device in active { try await sync(device) }
        }
    }

    @discardableResult
    func sync(_ device: Int) async throws -> FolderSyncReport {
        try await devices[device].ledger.sync(folder: folder.url.path, secret: secret)
    }

    private func slot(_ raw: Int) -> Int { active[raw % active.count] }

    private func apply(_ operation: FolderScenario.Operation) async throws {
        switch operation {
        case let .record(raw, tx):
            let d = slot(raw)
            let record = try Fixture.send(vault: "main", hash: tx + 1)
            if try await devices[d].ledger.record(record).outcome == .recorded {
                recorded.append((record.id, d, serial))
                serial += 1
            }
        case let .note(raw, tx, text):
            do {
                try await devices[slot(raw)].ledger.setNote(text, for: try Fixture.send(vault: "main", hash: tx + 1).id)
            } catch let error as LedgerError where error.code == .notFound {
                // Not recorded there (yet).
            }
        case let .sync(raw):
            let d = slot(raw)
            try await sync(d)
            try await checkHoldsTheFolder(d)
        case let .syncTogether(rawA, rawB):
            let (a, b) = (devices[slot(rawA)].ledger, devices[slot(rawB)].ledger)
            let (path, secret) = (folder.url.path, secret)
            async let first = a.sync(folder: path, secret: secret)
            async let second = b.sync(folder: path, secret: secret)
            _ = try await (first, second)
        case let .hazard(hazard):
            try await put(hazard)
        case let .tick(raw, seconds):
            devices[slot(raw)].clock.advance(by: Double(seconds))
        case let .snapshot(raw):
            let d = slot(raw)
            snapshots[d] = (try await TestLedger(copyOf: devices[d].ledger, clock: devices[d].clock), serial)
        case let .restore(raw):
            let d = slot(raw)
            guard let (backup, since) = snapshots[d] else { return }
            devices[d] = try await TestLedger(copyOf: backup.ledger, clock: devices[d].clock)
            recorded.removeAll { $0.device == d && $0.serial >= since }
        case let .lose(raw):
            guard active.count > 1 else { return }
            let d = slot(raw)
            lost.insert(d)
            recorded.removeAll { $0.device == d }
        case .join:
            guard devices.count < FolderScenario.maxDevices else { return }
            devices.append(try await TestLedger())
        }
    }

    /// Right after a sync, a device holds every record state that any file of the folder
    /// carries (or a later one): it read every file that was new to it.
    private func checkHoldsTheFolder(_ device: Int) async throws {
        let ledger = devices[device].ledger
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        where FolderFileName.kind(of: name) == .bundle {
            // A file that does not decode is a hazard.
            guard let changes = try? await BundleFixture.decode(folder.path(name), secret: secret) else { continue }
            for record in changes.records {
                let held = try await ledger.read { try $0.fetchStored(id: record.id) }
                if held.map({ $0.joined(with: record) != $0 }) ?? true {
                    missed.append("device \(device) lacks \(record.id) of \(name) after syncing")
                }
            }
        }
    }

    private func put(_ hazard: FolderScenario.Hazard) async throws {
        let bundles = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            .filter { FolderFileName.kind(of: $0) == .bundle }.sorted()
        let sample = try bundles.first.map { try Data(contentsOf: folder.url.appendingPathComponent($0)) }
        func write(_ name: String, _ data: Data) throws { try data.write(to: folder.url.appendingPathComponent(name)) }
        switch hazard {
        case .conflictCopy:
            guard let name = bundles.first, let sample else { return }
            try write(String(name.dropLast(FolderFileName.suffix.count)) + " (1)" + FolderFileName.suffix, sample)
        case .cutUpload:
            guard let sample else { return }
            try write(FolderFileName.random(), sample.prefix(sample.count / 2))
        case .placeholder:
            try write("." + FolderFileName.random() + ".icloud", Data("placeholder".utf8))
        case .anotherKey:
            let stranger = try await TestLedger()
            try await stranger.ledger.record(try Fixture.minimalSend(vault: "main", hash: 999))
            try await stranger.ledger.exportBundle(
                vault: "main",
                to: folder.path(FolderFileName.random()),
                secret: .syncKey(.generate()),
                scope: .full
            )
        case .emptyFile:
            try write(FolderFileName.random(), Data())
        case .junk:
            try write(FolderFileName.random(), Data("not a bundle".utf8))
        }
    }
}
