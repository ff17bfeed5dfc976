import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerTestSupport

/// A whole sync between two ledgers with the most verbose logging, every kind of secret and
/// every way a secret can be wrong: no output line may carry the key or the passphrase, in
/// any form.
struct SecretHygieneTests {
    let folder: TemporaryDirectory
    let a: CLI
    let b: CLI
    static let passphrase = "hygiene: seven blue lanterns at dawn"
    static let trace = ["TXLEDGER_LOG": "trace", "SYNC_PASSPHRASE": passphrase]

    init() throws {
        folder = try TemporaryDirectory()
        a = CLI(db: folder.path("a.sqlite"))
        b = CLI(db: folder.path("b.sqlite"))
    }

    @Test func noSecretInAnyOutputOfAFullSyncScenario() async throws {
        let key = folder.path("vault.key")
        let other = folder.path("other.key")
        let passphraseFile = folder.path("passphrase.txt")
        let wrongPassphraseFile = folder.path("wrong.txt")
        _ = try folder.privateFile("passphrase.txt", Self.passphrase + "\n")
        _ = try folder.privateFile("wrong.txt", "not the passphrase\n")
        let ab = folder.path("ab.txb")
        let ba = folder.path("ba.txb")
        let tampered = folder.path("tampered.txb")
        var outputs: [CLI.Result] = []
        func run(_ cli: CLI, _ arguments: [String]) async throws {
            outputs.append(try await cli.run(arguments, environment: Self.trace))
        }

        try await run(a, ["keygen", "--out", key])
        try await run(a, ["keygen", "--out", other])
        for n in 1...3 { try await run(a, CLI.send(n)) }
        try await run(b, CLI.send(4))
        try await run(a, ["export", "--vault", "main", "--out", ab, "--key-file", key])
        try await run(b, ["import", ab, "--key-file", key])
        try await run(
            b,
            ["export", "--vault", "main", "--out", ba, "--passphrase-env", "SYNC_PASSPHRASE", "--kdf", "interactive"]
        )
        try await run(a, ["import", ba, "--passphrase-file", passphraseFile, "--json"])
        try await run(a, ["inspect", ba, "--passphrase-env", "SYNC_PASSPHRASE"])
        try await run(a, ["inspect", ab, "--key-file", key])
        // Every way to be wrong.
        try await run(b, ["import", ab, "--key-file", other])
        try await run(a, ["import", ba, "--passphrase-file", wrongPassphraseFile])
        try await run(a, ["import", ab, "--passphrase-env", "SYNC_PASSPHRASE"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: ab))
        bytes[bytes.count - 3] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: tampered))
        try await run(b, ["import", tampered, "--key-file", key])
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        try await run(b, ["import", ab, "--key-file", key])
        #expect(
            outputs.last?.stderr.contains("warning: key file '\(key)' can be read by other users; run chmod 600 on it")
                == true
        )
        // A passphrase can never be given on the command line: there is no such option.
        try await run(
            a,
            ["export", "--vault", "main", "--out", folder.path("argv.txb"), "--passphrase", Self.passphrase]
        )
        let argv = try #require(outputs.last)
        #expect(argv.status == 64 && !FileManager.default.fileExists(atPath: folder.path("argv.txb")))

        #expect(outputs.filter { $0.status == 0 }.count == 13 && outputs.count == 18, "\(outputs.map(\.status))")
        #expect(outputs.contains { $0.stderr.contains("trace") || $0.stderr.contains("debug") }, "the log was on")
        for secret in try Self.forms(ofKeyFile: key) + Self.forms(ofKeyFile: other) + [Self.passphrase] {
            for (index, output) in outputs.enumerated() where index != outputs.count - 1 {
                #expect(
                    !output.stdout.contains(secret) && !output.stderr.contains(secret),
                    "run \(index) shows a secret"
                )
            }
        }
        // The refused argv run may only echo what it was given, which is the caller's own doing.
        #expect(!argv.stdout.contains(Self.passphrase))
    }

    /// A key as it could leak: its printable form with and without dashes, a stretch of it, and
    /// its 32 bytes in hex and base64.
    static func forms(ofKeyFile path: String) throws -> [String] {
        let printable = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        let raw = try SyncKey(printable: printable).secret.withUnsafeBytes { Data($0.prefix(32)) }
        let hex = raw.map { String(format: "%02x", $0) }.joined()
        return [
            printable, printable.replacingOccurrences(of: "-", with: ""), String(printable.dropFirst(12).prefix(17)),
            hex, hex.uppercased(), raw.base64EncodedString(),
        ]
    }
}
