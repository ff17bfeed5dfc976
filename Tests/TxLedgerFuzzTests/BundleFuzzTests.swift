import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A randomized mutator over the spec's `ok` vectors of both formats (Specs/vectors): every mutated bundle must
/// end in a typed error or a valid result, never a crash, a trap or an untyped error.
///
/// Two layers: the file as it is on disk (header, key check, MAC, chunks), and the decrypted
/// payload, sealed again so that it authenticates and reaches the decoder and the merge.
/// `TXLEDGER_FUZZ_ITERATIONS` sets the budget per vector and layer (CI: the default),
/// `TXLEDGER_FUZZ_SEED` the seed; `scripts/fuzz.sh` runs a long budget.
@Suite struct BundleFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let iterations = environment["TXLEDGER_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 300
    static let seed = environment["TXLEDGER_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x7478_6c65_6467_6572

    let folder: TemporaryDirectory
    let vectors: [BundleVector]

    init() throws {
        folder = try TemporaryDirectory()
        vectors = try BundleVector.all().filter { $0.expect == "ok" }
    }

    @Test func mutatedFilesEndInTypedErrors() async throws {
        var outcomes: [String: Int] = [:]
        for (index, vector) in vectors.enumerated() {
            let secret = try vector.secret()
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: vector.path)))
            var rng = Self.rng(index)
            // A passphrase costs an Argon2id derivation per try: a tenth of the budget.
            let budget = secret.mode == .passphrase ? max(1, Self.iterations / 10) : Self.iterations
            for _ in 0..<budget {
                let path = folder.path("mutant.txb")
                try Data(Mutator.mutate(bytes, using: &rng)).write(to: URL(fileURLWithPath: path))
                outcomes[await Self.outcome { _ = try await BundleVector.decode(path, secret: secret) }, default: 0] +=
                    1
            }
        }
        print("fuzz, files (seed \(Self.seed)): \(outcomes.sorted { $0.key < $1.key })")
        // The mutator reaches past the header checks into the chunks.
        #expect(
            outcomes["payload_tampered", default: 0] > 0 && outcomes["header_tampered", default: 0] > 0,
            "\(outcomes)"
        )
        #expect(outcomes["untyped", default: 0] == 0, "\(outcomes)")
    }

    @Test func mutatedPayloadsThatAuthenticateEndInTypedErrors() async throws {
        let secret = BundleSecret.syncKey(.generate())
        let target = try await TestLedger()
        var outcomes: [String: Int] = [:]
        for (index, vector) in vectors.enumerated() {
            let (payload, version) = try await Self.payload(of: vector)
            var rng = Self.rng(100 + index)
            for _ in 0..<Self.iterations {
                let path = try await BundleFixture.seal(
                    Mutator.mutate(payload, using: &rng),
                    with: secret,
                    in: folder,
                    version: version
                )
                var outcome = await Self.outcome { _ = try await BundleVector.decode(path, secret: secret) }
                if outcome == "ok" {
                    // What decodes is merged for real: it must also end in success or a typed error.
                    outcome = await Self.outcome { _ = try await target.ledger.importBundle(at: path, secret: secret) }
                }
                outcomes[outcome, default: 0] += 1
                try FileManager.default.removeItem(atPath: path)
            }
        }
        print("fuzz, payloads (seed \(Self.seed)): \(outcomes.sorted { $0.key < $1.key })")
        // Authentic bytes can only be malformed, or valid; and both happen.
        #expect(Set(outcomes.keys).isSubset(of: ["ok", "malformed_content", "invalid_input"]), "\(outcomes)")
        #expect(outcomes["ok", default: 0] > 0 && outcomes["malformed_content", default: 0] > 0, "\(outcomes)")
        let integrity = try await target.ledger.database.pool.read { db in
            try String.fetchOne(db, sql: "PRAGMA integrity_check")
        }
        #expect(integrity == "ok")
    }

    /// The decrypted payload of a vector, and its format, read on a thread of its own.
    static func payload(of vector: BundleVector) async throws -> (payload: [UInt8], version: UInt8) {
        let path = vector.path
        let secret = try vector.secret()
        return try await DedicatedThread.run {
            let reader = try BundleReader(path: path, secret: secret)
            var payload: [UInt8] = []
            while let chunk = try reader.nextChunk() { payload += chunk }
            return (payload, reader.header.version)
        }
    }

    static func rng(_ stream: Int) -> Xoshiro {
        Xoshiro(seed: (seed, UInt64(stream), 0x9E37_79B9_7F4A_7C15, seed ^ 0xDEAD_BEEF))
    }

    /// The failure class of what `body` threw, "ok", or "untyped" for any other error.
    static func outcome(_ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "ok"
        } catch let error as BundleError {
            return error.code.rawValue
        } catch let error as LedgerError where error.code == .invalidInput {
            return "invalid_input"
        } catch {
            Issue.record("an untyped error: \(error)")
            return "untyped"
        }
    }
}

/// Byte-level mutations in the style of libFuzzer's: bit flips, interesting bytes, inserted,
/// erased and repeated ranges, cuts, and forged varints (the lengths and counts a decoder trusts).
enum Mutator {
    /// 1 to 4 mutations of `input`; never empty (a bundle's payload never is).
    static func mutate(_ input: [UInt8], using rng: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0...Int.random(in: 0...3, using: &rng) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            let span = min(bytes.count - at, Int.random(in: 1...16, using: &rng))
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            case 1: bytes[at] = [0x00, 0x01, 0x7F, 0x80, 0xFF].randomElement(using: &rng)!
            case 2: bytes.insert(contentsOf: (0..<span).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: at)
            case 3: bytes.removeSubrange(at..<at + span)
            case 4: bytes.insert(contentsOf: bytes[at..<at + span], at: Int.random(in: 0...bytes.count, using: &rng))
            case 5: bytes.removeSubrange(at...)
            default:
                let forged: [[UInt8]] = [
                    [0xFF, 0xFF, 0xFF, 0xFF, 0x0F], Array(repeating: 0xFF, count: 9) + [0x01],
                    [0x80, 0x80, 0x80, 0x80, 0x40],
                ]
                bytes.replaceSubrange(at..<at + min(span, 5), with: forged.randomElement(using: &rng)!)
            }
        }
        return bytes.isEmpty ? [UInt8.random(in: 0...255, using: &rng)] : bytes
    }
}
