import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Random millisecond instants (1970 to 9999) through every output of the command line and
/// back through `record --json` (Specs/schema.md, "Instants"): nothing moves by a millisecond.
struct CLIInstantTests {
    @Test func everyOutputPrintsTheStoredMillisecondAndCopiesKeepIt() async throws {
        let dir = try TemporaryDirectory()
        let cli = CLI(db: dir.path("a.sqlite"))
        var rng = Xoshiro(seed: (11, 12, 13, UInt64(Date().timeIntervalSince1970)))
        let instants =
            [0, 1, 10, 123, 1_767_225_600_001, 1_767_225_600_007, 1_767_225_600_010, 1_767_225_600_123, Date.maxMillis]
            + (1...111).map { _ in Int64.random(in: 0...Date.maxMillis, using: &rng) }
        let records: [[String: Any]] = instants.enumerated().map { n, millis in
            [
                "vaultId": "main", "kind": "send", "chain": "ethereum", "txHash": Fixture.evmHash(n + 1),
                "toAddress": Fixture.evmAddress(2),
                "amount": "1", "token": ["symbol": "ETH"], "timestamp": ISO8601.string(millis: millis),
                "status": "confirmed",
                "confirmedAt": ISO8601.string(millis: Date.maxMillis - millis),
            ]
        }
        let input = try JSONSerialization.data(withJSONObject: records)
        let recorded = try await cli.run(["record", "--json", "-"], stdin: input)
        try #require(recorded.status == 0, "\(recorded.stderr)")
        func expected(_ n: Int) -> (timestamp: String, confirmedAt: String) {
            (ISO8601.string(millis: instants[n]), ISO8601.string(millis: Date.maxMillis - instants[n]))
        }

        // list --json
        let listed = try await cli.run(["list", "--json", "--limit", "1000"])
        let items =
            try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])["items"]
            as? [[String: Any]]
        #expect(items?.count == instants.count)
        for item in items ?? [] {
            let hash = try #require(item["txHash"] as? String)
            let n = try #require(Int(hash.dropFirst(2), radix: 16)) - 1
            #expect(item["timestamp"] as? String == expected(n).timestamp)
            #expect(item["confirmedAt"] as? String == expected(n).confirmedAt)
        }

        // show, as text and as JSON, for a sample
        for n in [0, 2, 3, 5, 6, 7, 8, 50, 119] {
            let shown = try await cli.run(["show", Fixture.evmHash(n + 1)])
            #expect(shown.stdout.contains("time: \(expected(n).timestamp)\n"), "\(shown.stdout)")
            #expect(shown.stdout.contains("confirmed at: \(expected(n).confirmedAt)\n"))
            let json = try await cli.run(["show", Fixture.evmHash(n + 1), "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(object?["timestamp"] as? String == expected(n).timestamp)
        }

        // export-csv: date first, confirmedAt among the columns
        let csv = dir.path("history.csv")
        try await cli.run(["export-csv", "--vault", "main", "--out", csv])
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n").dropFirst()
        #expect(rows.count == instants.count)
        for n in instants.indices {
            #expect(
                rows.contains {
                    $0.hasPrefix(expected(n).timestamp + ",") && $0.contains("," + expected(n).confirmedAt + ",")
                }
            )
        }

        // The human list in UTC: the rows' local times are the instants' HH:mm, one each.
        let human = try await cli.run(["list", "--limit", "1000"], environment: ["TZ": "UTC", "NO_COLOR": "1"])
        let times = human.stdout.split(separator: "\n").compactMap { line -> String? in
            let clock = line.drop { $0 == " " }.prefix(6)
            return clock.count == 6 && clock.dropFirst(5) == " "
                && clock.dropLast().allSatisfy({ $0.isNumber || $0 == ":" })
                ? String(clock.prefix(5)) : nil
        }
        #expect(
            times.sorted()
                == instants.map { millis in
                    let t = CivilTime(millis: millis)
                    return String(format: "%02d:%02d", t.hour, t.minute)
                }.sorted(),
            "\(human.stdout.prefix(600))"
        )

        // The documented copy: list --json | record --json - into another ledger, then the same listing.
        let copy = CLI(db: dir.path("b.sqlite"))
        let copied = try await copy.run(["record", "--json", "-"], stdin: Data(listed.stdout.utf8))
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try await copy.run(["list", "--json", "--limit", "1000"]).stdout == listed.stdout)
    }
}
