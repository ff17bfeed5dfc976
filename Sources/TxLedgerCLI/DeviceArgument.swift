import Foundation
import TxLedger

/// How a command names a device of a vault: its fingerprint or the start of it (at least 4
/// symbols, dashes and case ignored), its id, or its name; it must match one member.
enum DeviceArgument {
    static func resolve(_ text: String, vault: String, on ledger: Ledger) async throws -> DeviceID {
        guard let devices = try await ledger.devices(vault: vault) else {
            throw LedgerError.invalidInput(
                field: "vault",
                reason: "vault '\(OutsideText.escaped(vault))' has no device keys here (txledger devices init)"
            )
        }
        let symbols = text.uppercased().filter { $0 != "-" && $0 != " " }
        var matches = devices.members.filter { $0.name == text }
        if matches.isEmpty, symbols.count >= 4 {
            matches = devices.members.filter { $0.id.description.hasPrefix(symbols) }
        }
        guard matches.count == 1 else {
            throw LedgerError.invalidInput(
                field: "device",
                reason: matches.isEmpty
                    ? "no member of vault '\(OutsideText.escaped(vault))' has this name or fingerprint (txledger devices list)"
                    : "\(matches.count) members match; give more of the fingerprint"
            )
        }
        return matches[0].id
    }
}
