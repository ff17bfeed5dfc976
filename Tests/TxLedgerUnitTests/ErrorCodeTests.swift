import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus
@testable import TxLedgerTestSupport

/// Every error an app can meet has a stable code (Specs/errors.md) and a message that names no
/// command-line command: the command line adds its own hints.
struct ErrorCodeTests {
    static let ledgerErrors: [(LedgerError, String)] = [
        (.invalidInput(field: "amount", reason: "x"), "invalid_input"), (.notFound("abc"), "not_found"),
        (.unknownPeer(ReplicaID(rawValue: 1), vault: nil), "unknown_peer"), (.unknownVault("v"), "unknown_vault"),
        (.ambiguous(hash: "h", ids: []), "ambiguous"),
        (.unreadableDatabase(path: "p", reason: "r"), "unreadable_database"),
        (.newerSchema(path: "p"), "newer_schema"), (.invalidCursor, "invalid_cursor"),
        (.storage(path: "p", reason: "r"), "storage"),
        (.output(path: "p", reason: "r"), "output"),
    ]
    static let bundleErrors: [(BundleError, String)] = [
        (.notABundle, "not_a_bundle"), (.unsupportedVersion("format version 9"), "unsupported_version"),
        (.wrongSecret(.syncKey), "wrong_secret"), (.secretKindMismatch(bundle: .passphrase), "secret_kind_mismatch"),
        (.headerTampered, "header_tampered"), (.payloadTampered(chunk: 1), "payload_tampered"),
        (.truncated, "truncated"),
        (.trailingData, "trailing_data"), (.malformedContent("x"), "malformed_content"),
        (.invalidKey("x"), "invalid_key"),
        (.invalidPassphrase("x"), "invalid_passphrase"), (.io(path: "p", reason: "r"), "io"),
        (.insufficientMemory(bytes: 1 << 30), "insufficient_memory"),
    ]

    @Test func everyCaseHasItsCodeAndAMessageWithoutACommand() {
        let messages =
            Self.ledgerErrors.map { ($0.0.code.rawValue, $0.1, $0.0.localizedDescription) }
            + Self.bundleErrors.map { ($0.0.code.rawValue, $0.1, $0.0.localizedDescription) }
            + [
                (
                    StatusUpdateRefusal.alreadyAt(.pending).code.rawValue, "already_at",
                    StatusUpdateRefusal.alreadyAt(.pending).localizedDescription
                ),
                (
                    StatusUpdateRefusal.wouldRegress(current: .confirmed).code.rawValue, "would_regress",
                    StatusUpdateRefusal.wouldRegress(current: .confirmed).localizedDescription
                ),
                (
                    StatusCheckError.rateLimited.code.rawValue, "rate_limited",
                    StatusCheckError.rateLimited.localizedDescription
                ),
            ]
        for (code, expected, message) in messages {
            #expect(code == expected)
            #expect(!message.contains("txledger") && !message.contains("`"), "\(code): \(message)")
            #expect(!message.contains("The operation couldn"), "\(code) has its own message")
        }
        #expect(Set(messages.map(\.0)).count == messages.count, "codes are distinct")
    }

    @Test func theCommandLineAddsItsHints() async throws {
        let directory = try TemporaryDirectory()
        let cli = CLI(db: directory.path("ledger.sqlite"))
        let missing = try await cli.run(["show", "0x" + String(repeating: "ab", count: 32)])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasSuffix("in this ledger; `txledger list` shows what it holds\n"), "\(missing.stderr)")
    }

    /// A code a later version adds is a value, not a case: an app's `switch` over `code` with a
    /// `default:` keeps compiling, and the error still has a message.
    @Test func aCodeThisVersionDoesNotKnowStillReads() {
        let later = LedgerError.Code(rawValue: "later_code")
        #expect(later != .storage && later.rawValue == "later_code")
        #expect(LedgerError.Code(rawValue: "not_found") == .notFound)
        #expect(BundleError.Code(rawValue: "truncated") == .truncated)
    }

    /// An error another one caused keeps it: SQLite's for a file that is not a database, the
    /// decoder's for JSON that is not a record, the file system's for a bundle that cannot be
    /// read. The message says what it means; the cause is there for logs.
    @Test func anErrorKeepsItsCause() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("not-a-ledger.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Ledger(path: path)
            Issue.record("a file of 'A's opened as a ledger")
        } catch let error as LedgerError {
            #expect(error.code == .unreadableDatabase)
            #expect(error.underlying is DatabaseError, "\(String(describing: error.underlying))")
        }

        let test = try await TestLedger()
        do {
            _ = try await test.ledger.record(json: Data("{\"kind\": ".utf8))
            Issue.record("JSON cut short was recorded")
        } catch let error as LedgerError {
            #expect(error.code == .invalidInput)
            #expect(error.underlying is DecodingError, "\(String(describing: error.underlying))")
        }

        do {
            _ = try await BundleInfo.read(contentsOf: directory.path("missing.txb"), secret: .syncKey(.generate()))
            Issue.record("a missing bundle was read")
        } catch let error as BundleError {
            #expect(error.code == .io)
            #expect((error.underlying as? POSIXError)?.code == .ENOENT, "\(String(describing: error.underlying))")
        }
    }
}
