import ArgumentParser
import Foundation
import TxLedger

/// Where a bundle's secret comes from: a key file, or a passphrase from an environment
/// variable, a file or a prompt. Never from the command line itself, which other users can see.
struct SecretOptions: ParsableArguments {
    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp("Sync key file (from `txledger keygen`).", valueName: "file")
    )
    var keyFile: String?
    @Option(
        name: .customLong("passphrase-env"),
        help: ArgumentHelp("Environment variable holding the passphrase.", valueName: "name")
    )
    var passphraseEnv: String?
    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp("File whose first line is the passphrase.", valueName: "file")
    )
    var passphraseFile: String?

    func validate() throws {
        guard [keyFile, passphraseEnv, passphraseFile].compactMap({ $0 }).count <= 1 else {
            throw ValidationError("give only one of --key-file, --passphrase-env and --passphrase-file")
        }
    }

    /// The secret named by the options; without any, when `ask` and stdin is a terminal, a
    /// passphrase asked there (twice when `confirm`); else `nil`.
    func secret(ask: Bool, confirm: Bool = false) throws -> BundleSecret? {
        if let keyFile {
            if SyncKey.isExposed(file: keyFile) { Self.warnExposed("key file", keyFile) }
            return .syncKey(try SyncKey(contentsOfFile: keyFile))
        }
        if let passphraseEnv { return .passphrase(try Passphrase.fromEnvironment(passphraseEnv)) }
        if let passphraseFile {
            if Passphrase.isExposed(file: passphraseFile) { Self.warnExposed("passphrase file", passphraseFile) }
            return .passphrase(try Passphrase.fromFile(passphraseFile))
        }
        guard ask && isatty(STDIN_FILENO) == 1 else { return nil }
        let passphrase = try Self.prompt("Passphrase: ")
        if confirm {
            let again = try Self.prompt("Passphrase again: ")
            guard passphrase.matches(again) else { throw BundleError.invalidPassphrase("the two entries differ") }
        }
        return .passphrase(passphrase)
    }

    /// The secret, required.
    func requiredSecret(confirm: Bool) throws -> BundleSecret {
        guard let secret = try secret(ask: true, confirm: confirm) else {
            throw ValidationError(
                "give --key-file, --passphrase-env or --passphrase-file (or run on a terminal to be asked)"
            )
        }
        return secret
    }

    /// The secret, required unless `ledger` has a device identity (Specs/devices.md: a member
    /// needs none); then only one named by the options.
    func secret(for ledger: Ledger, confirm: Bool) async throws -> BundleSecret? {
        guard try await ledger.hasDeviceIdentity() else { return try requiredSecret(confirm: confirm) }
        return try secret(ask: false)
    }

    private static func warnExposed(_ what: String, _ path: String) {
        StandardError.warn(["\(what) '\(OutsideText.escaped(path))' can be read by other users; run chmod 600 on it"])
    }

    /// Reads a passphrase from the terminal without echo (`getpass`), then wipes its buffer.
    private static func prompt(_ text: String) throws -> Passphrase {
        guard let typed = getpass(text) else {
            throw BundleError.invalidPassphrase("it could not be read from the terminal")
        }
        let bytes = UnsafeMutableRawBufferPointer(start: typed, count: strlen(typed))
        defer { bytes.initializeMemory(as: UInt8.self, repeating: 0) }
        return try Passphrase(copying: UnsafeRawBufferPointer(bytes))
    }
}
