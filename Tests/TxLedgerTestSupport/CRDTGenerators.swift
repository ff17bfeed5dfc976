import Foundation
import PropertyBased

@testable import TxLedger
@testable import TxLedgerCore

/// Generators of CRDT states for the law tests. Stamps come from a small space so that equal
/// times on different replicas (the tie-break) are frequent; every register value is derived
/// from its stamp, because in the real system one stamp is one write, except the fields of a
/// newer version, drawn on their own so that one stamp with two values (a copied file) occurs.
enum CRDTGen {
    static func stamp(_ rng: inout any SeededRandomNumberGenerator) -> Stamp {
        Stamp(
            millis: Int64.random(in: 0...4, using: &rng),
            counter: Int64.random(in: 0...1, using: &rng),
            replica: ReplicaID(rawValue: Int64.random(in: 0...2, using: &rng))
        )
    }

    static func optionalStamp(_ rng: inout any SeededRandomNumberGenerator) -> Stamp? {
        Bool.random(using: &rng) ? stamp(&rng) : nil
    }

    /// A proven outcome: confirmed or failed by the stamp, with a block and a fee paid for some.
    static func outcome(for stamp: Stamp) -> StatusUpdate {
        let block = stamp.counter == 1 ? UInt64(stamp.millis) : nil
        let fee = stamp.replica.rawValue == 1 ? try! DecimalAmount("0.00\(stamp.millis)") : nil
        let outcome =
            (stamp.time + stamp.replica.rawValue) % 2 == 0
            ? StatusUpdate.confirmed(at: Date(millis: stamp.millis * 1000), block: block, feePaid: fee)
            : StatusUpdate.failed(reason: "reason \(stamp)", block: block, feePaid: fee)
        // Some outcomes are the chain's answers, which outrank every device's word.
        return stamp.millis % 3 == 0 ? outcome.readOnChain : outcome
    }

    /// Status registers with every part present or not: pending, a proof, an inference.
    static func status(_ rng: inout any SeededRandomNumberGenerator) -> StatusRegister {
        // The terminal register as the join of up to three claims, so that its rival is one a
        // real replica could hold.
        var claims = StatusRegister(
            pending: optionalStamp(&rng),
            inferred: optionalStamp(&rng).map { Register("dropped \($0)", stamp: $0) }
        )
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let stamp = stamp(&rng)
            claims = claims.joined(with: StatusRegister(terminal: Register(outcome(for: stamp), stamp: stamp)))
        }
        return claims
    }

    static let statusRegister = Generator<StatusRegister, Shrink.None<StatusRegister>>(run: { rng in status(&rng) })

    /// States of one record (same id), as different replicas could hold them.
    static let recordState = Generator<RecordState, Shrink.None<RecordState>>(run: { rng in
        let factsStamp = stamp(&rng)
        let facts = try! TransactionFacts(
            vaultId: "v",
            chain: Fixture.ethereum,
            timestamp: Date(millis: 1_700_000_000_000 + factsStamp.millis),
            txHash: Fixture.evmHash(1),
            details: .send(
                try! SendDetails(
                    toAddress: Fixture.evmAddress(1),
                    amount: try! DecimalAmount("\(factsStamp.time).\(factsStamp.replica.rawValue)"),
                    token: try! Token(symbol: "ETH")
                )
            )
        )
        let state = RecordState(
            facts: Register(facts, stamp: factsStamp),
            status: status(&rng),
            lastCheckedAt: Bool.random(using: &rng) ? Date(millis: Int64.random(in: 0...5, using: &rng)) : nil,
            note: optionalStamp(&rng).map { Register($0.counter == 0 ? "note \($0)" : nil, stamp: $0) },
            labels: optionalStamp(&rng).map { Register(["l\($0.time % 3)", "r\($0.replica.rawValue)"], stamp: $0) },
            hidden: optionalStamp(&rng).map { Register(($0.time + $0.replica.rawValue) % 2 == 0, stamp: $0) },
            cleared: optionalStamp(&rng).map { ClearMark(through: stamp(&rng), stamp: $0) }
        )
        return try! state.attaching(newerFields(for: state, &rng))
    })

    /// Fields of a newer version (bundle-format.md, "Newer fields"): sometimes a fact, a
    /// terminal value field when the record is decided, and a register of block 6.
    static func newerFields(for state: RecordState, _ rng: inout any SeededRandomNumberGenerator) -> NewerFields {
        var fields: [NewerField] = []
        if Bool.random(using: &rng) {
            fields.append(NewerField(number: 100, value: .varint(UInt64.random(in: 0...1, using: &rng))))
        }
        if state.status.terminal != nil, Bool.random(using: &rng) {
            fields.append(NewerField(number: 2000, value: .text("t\(Int.random(in: 0...1, using: &rng))")))
        }
        if let stamp = optionalStamp(&rng) {
            fields += [
                NewerField(number: 6000, value: .stampTime(stamp.time)),
                NewerField(number: 6001, value: .replica(stamp.replica)),
                NewerField(number: 6002, value: .varint(UInt64.random(in: 0...1, using: &rng))),
            ]
        }
        return NewerFields(fields)
    }

    static let statusUpdate = Generator<StatusUpdate, Shrink.None<StatusUpdate>>(run: { rng in
        switch Int.random(in: 0...4, using: &rng) {
        case 0: try! StatusUpdate(.broadcasted)
        case 1: .pending
        case 2: .confirmed(at: Bool.random(using: &rng) ? Date(millis: 1000) : nil)
        case 3: .failed(reason: Bool.random(using: &rng) ? "reverted" : nil)
        default: .inferredFailure(reason: Bool.random(using: &rng) ? "dropped" : "replaced")
        }
    })
}
