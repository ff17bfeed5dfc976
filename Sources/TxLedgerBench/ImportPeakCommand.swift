import ArgumentParser
import Foundation
import TxLedger

/// The child of `ImportPeak`: imports one bundle and prints its `ImportPeak.Result` as JSON.
struct ImportPeakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import-peak", shouldDisplay: false)

    @Option var ledger: String
    @Option var bundle: String
    @Option var keyFile: String

    func run() async throws {
        let target = try Ledger(path: ledger)
        let secret = BundleSecret.syncKey(try SyncKey(contentsOfFile: keyFile))
        let before = ImportPeak.residentPeak()
        let seconds = try await Stopwatch.seconds { _ = try await target.importBundle(at: bundle, secret: secret) }
        let result = ImportPeak.Result(beforeBytes: before, peakBytes: ImportPeak.residentPeak(), seconds: seconds)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }
}
