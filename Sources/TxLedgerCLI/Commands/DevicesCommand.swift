import ArgumentParser
import Foundation
import TxLedger

/// `txledger devices`: the vault's devices, and the commands that change them (Specs/cli.md,
/// "Devices"; Specs/devices.md).
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List a vault's devices (each with its own key), and add, remove or rename them.",
        discussion: """
            A vault with device keys seals its files for its member devices and has each signed \
            by its writer. `devices init` makes this device the first member with the vault's \
            key or passphrase, which from then on only recovers; the other devices join at \
            their next sync. A new device runs `devices request`, and a member `devices approve` \
            after comparing the fingerprint both show. `devices remove` shuts a lost device out \
            in one step. See Specs/devices.md.
            """,
        subcommands: [
            DevicesListCommand.self, DevicesInitCommand.self, DevicesRequestCommand.self, DevicesApproveCommand.self,
            DevicesRemoveCommand.self, DevicesRenameCommand.self, DevicesRotateRecoveryCommand.self,
            DevicesRestoreCommand.self,
        ],
        defaultSubcommand: DevicesListCommand.self
    )
}

struct DevicesListCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the vault's devices, the removed ones, and the writes of removed devices set aside."
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault.") var vault: String
    @Flag(help: "Print as JSON.") var json = false

    func run(on ledger: Ledger) async throws {
        guard let devices = try await ledger.devices(vault: vault) else {
            throw LedgerError.invalidInput(
                field: "vault",
                reason: "vault '\(OutsideText.escaped(vault))' has no device keys here (txledger devices init)"
            )
        }
        print(json ? try JSONOutput.string(DevicesOutput(devices)) : DevicesOutput(devices).text)
    }
}

/// What `devices` prints.
struct DevicesOutput: Encodable {
    struct Member: Encodable {
        let id: String
        let fingerprint: String
        let name: String
        let addedBy: String
        let addedAt: String
        let lastSeen: String?
        let thisDevice: Bool
    }
    struct Removed: Encodable {
        let id: String
        let fingerprint: String
        let removedBy: [String]
        let cutAt: String
    }
    struct SetAside: Encodable {
        let id: String
        let device: String
        let registers: [String]
        let setAsideAt: String
    }

    let vault: String
    let epoch: String
    let members: [Member]
    let removed: [Removed]
    let setAside: [SetAside]

    init(_ devices: VaultDevices) {
        vault = devices.vault
        epoch = devices.epoch
        members = devices.members.map {
            Member(
                id: $0.id.description,
                fingerprint: $0.id.fingerprint,
                name: $0.name,
                addedBy: $0.addedBy.map(\.fingerprint) ?? "recovery secret",
                addedAt: ISO8601.string(from: $0.addedAt),
                lastSeen: $0.lastSeen.map(ISO8601.string(from:)),
                thisDevice: $0.isThisDevice
            )
        }
        removed = devices.removed.map {
            Removed(
                id: $0.id.description,
                fingerprint: $0.id.fingerprint,
                removedBy: $0.removedBy.map(\.fingerprint),
                cutAt: ISO8601.string(from: $0.cutAt)
            )
        }
        setAside = devices.setAside.map {
            SetAside(
                id: $0.id.rawValue,
                device: $0.device.fingerprint,
                registers: $0.registers,
                setAsideAt: ISO8601.string(from: $0.setAsideAt)
            )
        }
    }

    var text: String {
        var lines = ["vault \(OutsideText.escaped(vault)), epoch \(epoch)"]
        lines += members.map {
            "\($0.fingerprint)  \(OutsideText.escaped($0.name))\($0.thisDevice ? " (this device)" : "")"
                + ", added by \($0.addedBy) at \($0.addedAt), last seen \($0.lastSeen ?? "never")"
        }
        lines += removed.map {
            "\($0.fingerprint)  removed by \($0.removedBy.isEmpty ? "the recovery secret" : $0.removedBy.joined(separator: ", "))"
                + "; its writes after \($0.cutAt) do not count"
        }
        if !setAside.isEmpty {
            lines.append("\(setAside.count) write\(setAside.count == 1 ? "" : "s") of removed devices set aside:")
            lines += setAside.map {
                "  \($0.id) by \($0.device) (\($0.registers.joined(separator: ", "))) at \($0.setAsideAt)"
            }
        }
        return lines.joined(separator: "\n")
    }
}
