import ArgumentParser
import Foundation
import TxLedger

struct DevicesInitCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make this device a member of the vault with the vault's key or passphrase (its recovery secret).",
        discussion: """
            The first device of a vault synced with a shared secret makes itself the first member; \
            from then on the vault's files are sealed for its devices and signed, and the shared \
            secret only recovers. The other devices join by themselves at their next sync (they \
            hold the secret), or run this command too.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault.") var vault: String
    @Option(help: "This device's name (default: the host's name).") var name: String?
    @OptionGroup var secretOptions: SecretOptions

    func run(on ledger: Ledger) async throws {
        let secret = try secretOptions.requiredSecret(confirm: false)
        let devices = try await ledger.initDevices(
            vault: vault,
            secret: secret,
            name: name ?? Ledger.Options.defaultDeviceName
        )
        let me = devices.members.first(where: \.isThisDevice)
        print(
            "this device (\(me?.id.fingerprint ?? "?")) is a member of vault \(OutsideText.escaped(vault)); "
                + "\(devices.members.count) device\(devices.members.count == 1 ? "" : "s")"
        )
    }
}

struct DevicesRequestCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract:
            "Ask to join a vault: print this device's join request and fingerprint, or leave it in a sync folder.",
        discussion: """
            A member approves the request with `txledger devices approve` after comparing the \
            fingerprint both devices show; this device gets the vault's whole history at its next \
            sync after the member's.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault.") var vault: String
    @Option(help: "Leave the request in this sync folder instead of printing it.") var folder: String?

    func run(on ledger: Ledger) async throws {
        let request = try await ledger.joinRequest(vault: vault)
        if let folder {
            try await ledger.leaveJoinRequest(vault: vault, folder: folder)
            print("left a join request in \(OutsideText.escaped(folder))")
        } else {
            print(request.printableText)
        }
        print("fingerprint \(request.fingerprint): check that the approving device shows the same")
    }
}

struct DevicesApproveCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Add a device that asked to join, after comparing its fingerprint.",
        discussion: """
            Give the request as printed by `devices request` (TXLJ1-...), or --folder with the \
            fingerprint the new device shows, to approve the request it left there.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The join request (TXLJ1-...), unless --folder is given.") var request: String?
    @Option(help: "The vault.") var vault: String
    @Option(help: "The new device's name.") var name: String?
    @Option(help: "Approve the request left in this sync folder whose fingerprint is --fingerprint.") var folder:
        String?
    @Option(help: "The fingerprint the new device shows (required with --folder).") var fingerprint: String?

    func validate() throws {
        guard (request == nil) != (folder == nil) else {
            throw ValidationError("give the request, or --folder with --fingerprint")
        }
        if folder != nil, fingerprint == nil { throw ValidationError("--folder needs --fingerprint") }
    }

    func run(on ledger: Ledger) async throws {
        var joining: JoinRequest
        if let folder, let fingerprint {
            joining = try await ledger.joinRequest(fingerprint: fingerprint, vault: vault, folder: folder)
        } else {
            joining = try JoinRequest(printable: request ?? "", vault: vault, name: "")
        }
        if let name { joining.name = name }
        if joining.name.isEmpty { joining.name = "device \(joining.fingerprint.prefix(9))" }
        let devices = try await ledger.approve(joining)
        print(
            "approved \(OutsideText.escaped(joining.name)) (fingerprint \(joining.fingerprint)) in vault "
                + "\(OutsideText.escaped(vault)); it gets the history after this device's next sync "
                + "(\(devices.members.count) devices)"
        )
    }
}

struct DevicesRemoveCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a lost or retired device: it reads nothing written after, and its later writes never count.",
        discussion: """
            The remaining devices need nothing: they move to the new epoch at their next sync. \
            When the removed device may hold the vault's recovery secret (every device of an \
            upgraded vault did), the secret is replaced in the same step by a new key file, \
            written to --recovery-out (default: beside the ledger); keep it away from your devices.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The device: its fingerprint (or its start), its id, or its name.") var device: String
    @Option(help: "The vault.") var vault: String
    @Option(help: ArgumentHelp("Where to write a new recovery key.", valueName: "file")) var recoveryOut: String?

    func run(on ledger: Ledger) async throws {
        let id = try await DeviceArgument.resolve(device, vault: vault, on: ledger)
        let removal = try await ledger.removeDevice(id, vault: vault)
        print("removed \(id.fingerprint) from vault \(OutsideText.escaped(vault)); epoch \(removal.devices.epoch)")
        if let key = removal.newRecovery { try RecoveryKeyFile.write(key, to: recoveryOut, root: root) }
    }
}

struct DevicesRenameCommand: LedgerCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a device of the vault.")

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The device: its fingerprint (or its start), its id, or its name.") var device: String
    @Argument(help: "Its new name.") var name: String
    @Option(help: "The vault.") var vault: String

    func run(on ledger: Ledger) async throws {
        let id = try await DeviceArgument.resolve(device, vault: vault, on: ledger)
        try await ledger.renameDevice(id, to: name, vault: vault)
        print("renamed \(id.fingerprint) to \(OutsideText.escaped(name))")
    }
}

struct DevicesRotateRecoveryCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-recovery",
        abstract: "Replace the vault's recovery secret with a new key file; the devices need nothing.",
        discussion: "The former secret then reads only what was written before, and approves nobody."
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault.") var vault: String
    @Option(help: ArgumentHelp("Where to write the new recovery key.", valueName: "file")) var recoveryOut: String?

    func run(on ledger: Ledger) async throws {
        let key = try await ledger.rotateRecovery(vault: vault)
        try RecoveryKeyFile.write(key, to: recoveryOut, root: root)
    }
}

struct DevicesRestoreCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Write set-aside writes of removed devices again, as this device's own.",
        discussion: "`txledger devices list` shows them; a restored write reaches every device with the next sync."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The record id of the set-aside write (all of them with --all).") var id: String?
    @Option(help: "The vault.") var vault: String
    @Flag(help: "Restore every set-aside write of the vault.") var all = false

    func validate() throws {
        guard (id == nil) == all else { throw ValidationError("give a record id, or --all") }
    }

    func run(on ledger: Ledger) async throws {
        let writes = try await ledger.devices(vault: vault)?.setAside ?? []
        let chosen = all ? writes : writes.filter { $0.id.rawValue == id }
        guard all || !chosen.isEmpty else {
            throw LedgerError.invalidInput(field: "id", reason: "no write of this record is set aside in this vault")
        }
        for write in chosen { try await ledger.restoreSetAside(write) }
        print("restored \(chosen.count) write\(chosen.count == 1 ? "" : "s")")
    }
}
