import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerTestSupport

/// `keygen`, `export`, `import` and `inspect` on real files, as a person or a script runs them.
struct CLIBundleTests {
    let directory: TemporaryDirectory
    let a: CLI
    let b: CLI
    static let passphrase = "a long passphrase: tuna melt at noon"

    init() throws {
        directory = try TemporaryDirectory()
        a = CLI(db: directory.path("a.sqlite"))
        b = CLI(db: directory.path("b.sqlite"))
    }

    @Test func keygenWritesAPrivateKeyFileAndNeverReplacesIt() async throws {
        let key = directory.path("vault.key")
        let made = try await a.run(["keygen", "--out", key])
        #expect(made.status == 0)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let text = try String(contentsOfFile: key, encoding: .utf8)
        #expect(text.hasPrefix("TXLK1-") && text.count == 78)
        _ = try SyncKey(printable: text)
        let again = try await a.run(["keygen", "--out", key])
        #expect(again.status == 74 && again.stderr.contains("the file exists; a key is never overwritten"))
        #expect(try String(contentsOfFile: key, encoding: .utf8) == text)
    }

    @Test func twoLedgersSyncThroughBundlesBothWaysWithEachKindOfSecret() async throws {
        let key = directory.path("vault.key")
        try await a.run(["keygen", "--out", key])
        let passphraseFile = try directory.privateFile("passphrase.txt", Self.passphrase + "\n")
        let env = ["SYNC_PASSPHRASE": Self.passphrase]
        var outputs: [CLI.Result] = []

        for n in 1...3 { outputs.append(try await a.run(CLI.send(n))) }
        outputs.append(try await b.run(CLI.send(1)))
        outputs.append(try await b.run(CLI.send(4)))
        outputs.append(try await a.run(["status", Fixture.evmHash(1), "confirmed"]))
        outputs.append(try await b.run(["status", Fixture.evmHash(1), "failed", "--reason", "reverted"]))
        outputs.append(try await b.run(["note", Fixture.evmHash(4), "from b"]))

        let ab = directory.path("a-to-b.txb")
        let ba = directory.path("b-to-a.txb")
        outputs.append(try await a.run(["export", "--vault", "main", "--out", ab, "--key-file", key]))
        #expect(outputs.last?.stdout.contains("records: 3") == true, "\(outputs.last!.stderr)")
        outputs.append(try await b.run(["import", ab, "--key-file", key]))
        // b set "failed" after a set "confirmed": b keeps its own, says so, and the record is
        // now disputed (a's word is its rival: crdt.md, "Outcomes the chain settles").
        #expect(
            outputs.last?.stdout.contains("added 2, changed 1, unchanged 0, cleared 0\nconflict") == true,
            "\(outputs.last!.stdout)\(outputs.last!.stderr)"
        )
        let shown = try await b.run(["show", Fixture.evmHash(1)])
        #expect(shown.stdout.contains("\ndisputed: confirmed, by replica "), "\(shown.stdout)")
        let listed = try await b.run(["list", "--vault", "main"])
        #expect(listed.stdout.contains("(disputed)"), "\(listed.stdout)")
        outputs.append(
            try await b.run(
                [
                    "export", "--vault", "main", "--out", ba, "--passphrase-env", "SYNC_PASSPHRASE", "--kdf",
                    "interactive",
                ],
                environment: env
            )
        )
        #expect(outputs.last?.status == 0, "\(outputs.last!.stderr)")
        outputs.append(try await a.run(["import", ba, "--passphrase-file", passphraseFile]))
        #expect(outputs.last?.status == 0, "\(outputs.last!.stderr)")

        #expect(try await a.history() == b.history(), "both ledgers hold the same history")
        let again = try await a.run(["import", ba, "--passphrase-file", passphraseFile])
        #expect(again.stdout.contains("(nothing changed)"))
        outputs.append(again)
        let json = try await a.run(["import", ba, "--passphrase-env", "SYNC_PASSPHRASE", "--json"], environment: env)
        #expect(
            json.stdout.contains("\"recordsUnchanged\" : 4") && json.stdout.contains("\"vault\" : \"main\""),
            "\(json.stdout)"
        )
        outputs.append(json)

        // No secret anywhere in what the commands printed.
        let keyText = try String(contentsOfFile: key, encoding: .utf8).trimmingCharacters(in: .newlines)
        for output in outputs {
            for secret in [keyText, Self.passphrase, String(keyText.dropFirst(6).prefix(11))] {
                #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
            }
        }
    }

    @Test func eachFailureHasItsOwnExitCodeAndLeavesTheLedgerAsItWas() async throws {
        let key = directory.path("vault.key")
        let other = directory.path("other.key")
        try await a.run(["keygen", "--out", key])
        try await a.run(["keygen", "--out", other])
        try await a.run(CLI.send(1))
        try await b.run(CLI.send(2))
        let bundle = directory.path("a.txb")
        try await a.run(["export", "--vault", "main", "--out", bundle, "--key-file", key])
        let good = try Data(contentsOf: URL(fileURLWithPath: bundle))
        let before = try await b.history()

        func expectFailure(
            _ bytes: Data?,
            _ arguments: [String],
            exit: Int32,
            _ message: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let path = directory.path("\(UUID().uuidString).txb")
            if let bytes { try bytes.write(to: URL(fileURLWithPath: path)) }
            let result = try await b.run(["import", path] + arguments)
            #expect(result.status == exit, "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(
                result.stderrLines.count == 1 && result.stderr.hasPrefix("txledger: ")
                    && result.stderr.contains(message),
                "\(result.stderr)",
                sourceLocation: sourceLocation
            )
            #expect(try await b.history() == before, sourceLocation: sourceLocation)
        }
        try await expectFailure(good, ["--key-file", other], exit: 77, "the sync key does not open this bundle")
        let passphrase = try directory.privateFile("passphrase.txt", "some passphrase")
        try await expectFailure(good, ["--passphrase-file", passphrase], exit: 77, "sealed with a sync key")
        var tampered = good
        tampered[tampered.count - 5] ^= 1
        try await expectFailure(tampered, ["--key-file", key], exit: 76, "chunk 0 of the bundle does not authenticate")
        var header = good
        header[70] ^= 1
        try await expectFailure(header, ["--key-file", key], exit: 76, "the bundle header was altered")
        try await expectFailure(good.prefix(100), ["--key-file", key], exit: 76, "the bundle is truncated")
        try await expectFailure(Data("hello".utf8), ["--key-file", key], exit: 78, "not a TxLedger bundle")
        var version = good
        version[8] = 9
        try await expectFailure(version, ["--key-file", key], exit: 78, "unsupported bundle: format version 9")
        try await expectFailure(nil, ["--key-file", key], exit: 74, "the file does not exist")

        let mistyped = directory.path("mistyped.key")
        var keyText = Array(try String(contentsOfFile: key, encoding: .utf8))
        keyText[8] = keyText[8] == "A" ? "B" : "A"
        try String(keyText).write(toFile: mistyped, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: mistyped)
        try await expectFailure(
            good,
            ["--key-file", mistyped],
            exit: 65,
            "its checksum does not match; a character is mistyped"
        )

        let noSecret = try await b.run(["import", bundle])
        #expect(
            noSecret.status == 64 && noSecret.stderr.contains("give --key-file, --passphrase-env or --passphrase-file")
        )
        let two = try await b.run(["import", bundle, "--key-file", key, "--passphrase-env", "P"])
        #expect(two.status == 64)
    }

    @Test func inspectShowsTheHeaderWithoutAKeyAndTheContentsWithOne() async throws {
        let key = directory.path("vault.key")
        try await a.run(["keygen", "--out", key])
        try await a.run(CLI.send(1))
        try await a.run(CLI.send(2))
        let bundle = directory.path("a.txb")
        try await a.run(["export", "--vault", "main", "--out", bundle, "--key-file", key, "--full"])

        let header = try await a.run(["inspect", bundle])
        #expect(header.status == 0)
        #expect(header.stdout.contains("format: 5\nkey mode: sync key\nsize: "))
        #expect(!header.stdout.contains("vault") && !header.stdout.contains("records"))
        let full = try await a.run(["inspect", bundle, "--key-file", key])
        let replica = try await a.run(["init"]).stdout.split(separator: "\n")[1].dropFirst("replica ".count)
        #expect(
            full.stdout.contains("vault: main\norigin: replica \(replica)\nchanges: all, through #2\nrecords: 2"),
            "\(full.stdout)"
        )

        // The JSON says everything the header holds, epochs included (cli.md).
        let json = try await a.run(["inspect", bundle, "--key-file", key, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "file", "formatVersion", "keyMode", "bytes", "vault", "origin", "since", "through", "full",
                "knowledge", "knowledgeEpochs", "lineage", "records",
            ],
            "\(json.stdout)"
        )
        let lineage = try #require(object["lineage"] as? [[String: Any]])
        // A full change set lists the epoch of its last change: the second process's, from #2.
        #expect(lineage.count == 1 && lineage[0]["firstSeq"] as? Int == 2 && (lineage[0]["id"] as? String)?.count == 16)

        // A key file others can read works, with a warning.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        let exposed = try await a.run(["inspect", bundle, "--key-file", key])
        #expect(exposed.status == 0 && exposed.stderr.contains("warning: key file '\(key)' can be read by other users"))
    }
}
