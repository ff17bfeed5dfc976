import TxLedgerCore
import TxLedgerMembership

/// devices.evaluate_hostile.4096: what the evaluation of a vault's membership log costs at its
/// limit (Specs/devices.md, "Evaluation"; `MembershipLog.maxOperations`), for the logs a hostile
/// member, or a removed device relaying the operations of devices it added, can make: two
/// devices removing each other 2047 times each; a chain of 4093 devices each adding the next,
/// behind the back of a removal of its first; one device added 1364 times (each add after
/// the last) that then signs 1364 renames, its adder removed 1364 times behind their backs.
/// The slowest median of three evaluations of each;
/// baseline: a log of as many operations that a vault could hold honestly (2047 devices added,
/// each renaming itself), evaluated in the same run. Bound: 1 s.
struct MembershipScenario {
    let report: BenchReport

    func run() async throws {
        let honest = try Self.honest()
        let hostile = [try Self.mutual(), try Self.chain(), try Self.fan()]
        let baseline = try await Self.evaluationTime(honest)
        var slowest = 0.0
        for log in hostile { slowest = max(slowest, try await Self.evaluationTime(log)) }
        report.add(
            "devices.evaluate_hostile.4096",
            .cost(slowest, unit: "s", baseline: baseline, name: "an honest log of as many operations")
        )
    }

    /// The median of three evaluations of `log`, checking that it holds its limit.
    private static func evaluationTime(_ log: Log) async throws -> Double {
        guard log.log.operations.count >= MembershipLog.maxOperations - 3 else {
            throw BenchFailure(description: "devices: a membership log of \(log.log.operations.count) operations")
        }
        return await Stopwatch.median(runs: 3) { _ = log.log.evaluate() }
    }

    /// A log being written: the vault founded by its recovery identity with a laptop and a
    /// tablet, and each new operation signed with the given parents.
    struct Log {
        let recovery = DeviceIdentity.generate()
        let laptop = DeviceIdentity.generate()
        let tablet = DeviceIdentity.generate()
        var log: MembershipLog
        var time: UInt64 = 0
        var founded: Set<OperationID> = []

        init() throws {
            log = MembershipLog(vault: "bench", firstRecovery: recovery.publicIdentity)
            founded = [try apply(add(laptop), by: recovery, asRecovery: true, parents: [])]
            founded = [try apply(add(tablet), by: laptop, parents: founded)]
        }

        mutating func apply(
            _ change: MembershipChange,
            by signer: DeviceIdentity,
            asRecovery: Bool = false,
            parents: Set<OperationID>
        ) throws -> OperationID {
            time += 1
            let operation = try MembershipOperation.signed(
                change,
                vault: "bench",
                time: time,
                parents: parents,
                by: signer,
                asRecovery: asRecovery
            )
            try log.insert(operation)
            return operation.id
        }

        func add(_ device: DeviceIdentity) -> MembershipChange {
            .add(device.publicIdentity, name: "d", replica: ReplicaID(rawValue: Int64(time + 100)))
        }

        func remove(_ device: DeviceIdentity) -> MembershipChange {
            .remove(device.deviceID, cut: RemovalCut(replica: ReplicaID(rawValue: 1), time: time), newRecovery: nil)
        }
    }

    private static var room: Int { MembershipLog.maxOperations - 2 }

    private static func honest() throws -> Log {
        var log = try Log()
        var heads = log.founded
        for _ in 0..<room / 2 {
            let device = DeviceIdentity.generate()
            heads = [try log.apply(log.add(device), by: log.laptop, parents: heads)]
            heads = [try log.apply(.rename(device.deviceID, name: "r"), by: device, parents: heads)]
        }
        return log
    }

    private static func mutual() throws -> Log {
        var log = try Log()
        var (laptops, tablets) = (log.founded, log.founded)
        for _ in 0..<room / 2 {
            laptops = [try log.apply(log.remove(log.tablet), by: log.laptop, parents: laptops)]
            tablets = [try log.apply(log.remove(log.laptop), by: log.tablet, parents: tablets)]
        }
        return log
    }

    private static func chain() throws -> Log {
        var log = try Log()
        var (signer, heads) = (log.tablet, log.founded)
        for _ in 0..<room - 1 {
            let next = DeviceIdentity.generate()
            heads = [try log.apply(log.add(next), by: signer, parents: heads)]
            signer = next
        }
        _ = try log.apply(log.remove(log.tablet), by: log.laptop, parents: log.founded)
        return log
    }

    private static func fan() throws -> Log {
        var log = try Log()
        let device = DeviceIdentity.generate()
        var renames = log.founded
        for _ in 0..<room / 3 { renames = [try log.apply(log.add(device), by: log.laptop, parents: renames)] }
        for _ in 0..<room / 3 {
            renames = [try log.apply(.rename(device.deviceID, name: "r"), by: device, parents: renames)]
        }
        var removals = log.founded
        for _ in 0..<room / 3 {
            removals = [try log.apply(log.remove(log.laptop), by: log.tablet, parents: removals)]
        }
        return log
    }
}
