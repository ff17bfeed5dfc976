import ArgumentParser
import TxLedger

struct ExportCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a vault's changes to an encrypted bundle.",
        discussion: """
            By default the bundle holds what some peer of the vault heard from within the peer \
            horizon has not acknowledged yet (everything if there is none); --full takes \
            everything, --for-peer what one replica lacks. The file appears only once complete; \
            an existing one is replaced.
            """
    )

    enum Cost: String, ExpressibleByArgument, CaseIterable {
        case interactive, moderate, sensitive

        var value: Argon2idCost {
            switch self {
            case .interactive: .interactive
            case .moderate: .moderate
            case .sensitive: .sensitive
            }
        }
    }

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault to export.") var vault: String
    @Option(help: ArgumentHelp("The bundle file to write.", valueName: "file")) var out: String
    @OptionGroup var secretOptions: SecretOptions
    @Flag(help: "Export everything this ledger holds of the vault.") var full = false
    @Option(
        name: .customLong("for-peer"),
        help: ArgumentHelp("Export what this replica (16 hex digits) lacks.", valueName: "replica")
    )
    var forPeer: String?
    @Option(
        name: .customLong("kdf"),
        help: "Argon2id cost with a passphrase: interactive, moderate (default) or sensitive."
    )
    var cost: Cost = .moderate
    @Option(
        name: .customLong("peer-horizon"),
        help: ArgumentHelp("Wait only for peers heard from within this many days (default 30).", valueName: "days")
    )
    var peerHorizon: Int?
    @Flag(help: "Print what was written as JSON.") var json = false

    var ledgerOptions: Ledger.Options {
        var options = Ledger.Options()
        if let peerHorizon { options.peerHorizonMillis = Int64(peerHorizon) * 86_400_000 }
        return options
    }

    func validate() throws {
        if full && forPeer != nil { throw ValidationError("give --full or --for-peer, not both") }
        if let peerHorizon, !(0...36_500).contains(peerHorizon) {
            throw ValidationError("--peer-horizon takes a number of days from 0 to 36500")
        }
        if let forPeer, ReplicaID(hex: forPeer) == nil {
            throw ValidationError("--for-peer takes a replica id of 16 hex digits, as `txledger init` prints it")
        }
    }

    func run(on ledger: Ledger) async throws {
        let scope: ExportScope =
            full ? .full : forPeer.flatMap(ReplicaID.init(hex:)).map(ExportScope.forPeer) ?? .knownPeers
        let secret = try await secretOptions.secret(for: ledger, confirm: true)
        let info = try await ledger.exportBundle(
            vault: vault,
            to: out,
            secret: secret,
            scope: scope,
            passphraseCost: cost.value,
            progress: ProgressLine.reporter()
        )
        print(
            json
                ? try JSONOutput.string(BundleInfoOutput(path: out, info: info))
                : BundleInfoOutput(path: out, info: info).text
        )
    }
}
