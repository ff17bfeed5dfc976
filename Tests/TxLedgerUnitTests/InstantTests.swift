import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Instants are whole milliseconds from end to end (Specs/schema.md, "Instants"): every text
/// form prints the stored millisecond and parses back to it.
struct InstantTests {
    static let instants = Gen.int64(in: 0...Date.maxMillis)

    /// The C library's `gmtime_r`, an implementation of the calendar that is not ours, agrees
    /// with `CivilTime` on the date and time of every whole second.
    @Test func civilTimeAgreesWithTheCLibrary() async {
        await propertyCheck(count: 2000, input: Self.instants) { millis in
            var seconds = time_t(millis / 1000)
            var tm = tm()
            gmtime_r(&seconds, &tm)
            let t = CivilTime(millis: millis)
            let ours: [Int] = [t.year, t.month, t.day, t.hour, t.minute, t.second, t.millisecond]
            let libc: [Int] = [
                Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min),
                Int(tm.tm_sec), Int(millis % 1000),
            ]
            #expect(ours == libc, "\(millis)")
        }
    }

    @Test func textRoundTripsToTheMillisecond() async throws {
        await propertyCheck(count: 2000, input: Self.instants) { millis in
            let text = ISO8601.string(millis: millis)
            #expect(ISO8601.string(from: Date(millis: millis)) == text)
            #expect((try? ISO8601.millis(from: text, field: "t")) == millis)
            #expect((try? ISO8601.date(from: text, field: "t"))?.millis == millis)
            let tail = millis % 1000 == 0 ? ":\(Self.pad(millis / 1000 % 60))Z" : ".\(Self.pad(millis % 1000, 3))Z"
            #expect(text.hasSuffix(tail), "\(text)")
        }
    }

    /// The cases of the issue that found the bug: each printed one millisecond early.
    @Test(arguments: ["123", "010", "007", "001", "999"])
    func millisecondsThatOnceLostOnePrintAsGiven(fraction: String) throws {
        let text = "2026-01-01T00:00:00.\(fraction)Z"
        let date = try ISO8601.date(from: text, field: "at")
        #expect(ISO8601.string(from: date) == text)
        #expect(date.millis == 1_767_225_600_000 + Int64(fraction)!)
    }

    /// A record's JSON and its CSV row carry the same instants it was made with, and its JSON
    /// decodes back to it.
    @Test func recordJSONAndCSVCarryExactInstants() async throws {
        await propertyCheck(count: 300, input: Self.instants, Self.instants, Self.instants) {
            timestamp,
            confirmed,
            checked in
            let record = try TransactionRecord(
                facts: try Fixture.minimalSend(hash: 1, at: Date(millis: timestamp)).facts,
                status: .confirmed(at: Date(millis: confirmed)),
                lastCheckedAt: Date(millis: checked)
            )
            let json = try JSONEncoder().encode(record)
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(
                [object["timestamp"], object["confirmedAt"], object["lastCheckedAt"]].map { $0 as? String }
                    == [timestamp, confirmed, checked].map(ISO8601.string(millis:))
            )
            let decoded = try JSONDecoder().decode(TransactionRecord.self, from: json)
            #expect(decoded == record)
            #expect(
                [decoded.timestamp.millis, decoded.confirmedAt?.millis, decoded.lastCheckedAt?.millis] == [
                    timestamp, confirmed, checked,
                ]
            )
            #expect(HistoryCSV.fields(record).first == ISO8601.string(millis: timestamp))
        }
    }

    /// Stored and read back, a record keeps its instants.
    @Test func theLedgerKeepsExactInstants() async throws {
        let test = try await TestLedger()
        var rng = Xoshiro(seed: (7, 8, 9, 10))
        let instants = (1...300).map { _ in Int64.random(in: 0...Date.maxMillis, using: &rng) }
        let records = try instants.enumerated().map { n, millis in
            try TransactionRecord(
                facts: try Fixture.minimalSend(hash: n + 1, at: Date(millis: millis)).facts,
                status: .confirmed(at: Date(millis: Date.maxMillis - millis))
            )
        }
        try await test.ledger.record(records)
        for stored in try await test.ledger.all() {
            let n = try #require(records.firstIndex { $0.id == stored.id })
            #expect(stored.timestamp.millis == instants[n])
            #expect(stored.confirmedAt?.millis == Date.maxMillis - instants[n])
        }
    }

    @Test(arguments: [
        ("2025-07-01", 1_751_328_000_000 as Int64),
        ("2025-07-01T12:00:00Z", 1_751_371_200_000),
        ("2025-07-01t12:00:00.25z", 1_751_371_200_250),
        ("2025-07-01T14:30:00.5+02:30", 1_751_371_200_500),
        ("2025-07-01T07:00:00.123000000-05:00", 1_751_371_200_123),
        ("2024-02-29T23:59:59.999Z", 1_709_251_199_999),
        ("1970-01-01T00:00:00Z", 0),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ])
    func acceptedForms(text: String, millis: Int64) throws {
        #expect(try ISO8601.millis(from: text, field: "at") == millis)
    }

    @Test(arguments: [
        "2025-07-01T12:00:00.1234Z",  // a tenth of a millisecond would be lost
        "2025-02-29T00:00:00Z", "2025-13-01T00:00:00Z", "2025-07-01T24:00:00Z", "2025-07-01T12:60:00Z",
        "2025-07-01T12:00:60Z", "2025-07-01T12:00:00", "2025-07-01T12:00Z", "2025-07-01 12:00:00Z",
        "2025-07-01T12:00:00.Z", "2025-07-01T12:00:00+0200", "2025-07-01T12:00:00+24:00", "25-07-01",
        "1969-12-31T23:59:59.999Z", "1970-01-01T00:30:00+01:00", "+2025-07-01T12:00:00Z", "2025-07-01T12:00:00Z ",
    ])
    func refusedForms(text: String) {
        #expect(throws: LedgerError.self) { try ISO8601.millis(from: text, field: "at") }
    }

    static func pad(_ value: Int64, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: width - text.count) + text
    }
}
