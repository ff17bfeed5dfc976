import Foundation

/// Where a page of a newest-first listing ended: keyset pagination, so a later page costs what
/// the first costs and records added meanwhile neither repeat nor shift later pages.
///
/// Opaque to apps and scripts: pass `token` back unchanged.
public struct PageCursor: Hashable, Sendable {
    package let timestampMillis: Int64
    package let id: TransactionID

    package init(after record: TransactionRecord) {
        timestampMillis = record.timestamp.millis
        id = record.id
    }

    /// Reads a `token` produced by this ledger.
    /// - Throws: `LedgerError.invalidCursor` for anything else.
    public init(token: String) throws {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else {
            throw LedgerError.invalidCursor
        }
        let parts = text.split(separator: ":")
        guard parts.count == 3, parts[0] == "1", let millis = Int64(parts[1]), let id = TransactionID(String(parts[2]))
        else {
            throw LedgerError.invalidCursor
        }
        timestampMillis = millis
        self.id = id
    }

    /// The cursor as an opaque URL-safe string.
    public var token: String {
        Data("1:\(timestampMillis):\(id.rawValue)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
