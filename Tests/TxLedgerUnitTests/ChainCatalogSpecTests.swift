import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Specs/chains.md is the whole definition of chains for a second implementation: its catalog
/// table must be the code's catalog, row by row, aliases included.
struct ChainCatalogSpecTests {
    struct Row: Equatable, CustomStringConvertible {
        let id, family, evmChainID, displayName, explorer: String
        let aliases: [String]
        let nativeAsset: String
        var description: String { "\(id) \(family) \(evmChainID) \(displayName) \(explorer) \(aliases) \(nativeAsset)" }
    }

    static func specRows() throws -> [Row] {
        let spec = try String(
            contentsOf: BundleVector.folder.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("chains.md"),
            encoding: .utf8
        )
        let table = try #require(
            spec.components(separatedBy: "## The catalog").last?.components(separatedBy: "\n\n").dropFirst().first
        )
        return table.split(separator: "\n").dropFirst(2).map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return Row(
                id: cells[0],
                family: cells[1],
                evmChainID: cells[2],
                displayName: cells[3],
                explorer: cells[4],
                aliases: cells[5].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.sorted(),
                nativeAsset: cells[6]
            )
        }
    }

    @Test func theSpecsCatalogIsTheCodes() throws {
        let code = Chain.wellKnown.map { chain in
            Row(
                id: chain.id,
                family: chain.family.rawValue,
                evmChainID: chain.evmChainID.map(String.init) ?? "",
                displayName: chain.displayName,
                explorer: chain.explorerPrefix ?? "",
                aliases: Chain.aliases.filter { $0.value == chain.id }.map(\.key).sorted(),
                nativeAsset: chain.nativeAsset ?? ""
            )
        }
        let spec = try Self.specRows()
        #expect(spec.count == code.count)
        for (s, c) in zip(spec, code) { #expect(s == c) }
    }

    @Test func everyNameAndAliasAndEVMIdParsesToItsCanonicalChain() throws {
        for row in try Self.specRows() {
            for text in [row.id, row.id.uppercased()] + row.aliases {
                #expect(try Chain(parsing: text).id == row.id, "\(text)")
            }
            if let evm = UInt64(row.evmChainID) {
                #expect(try Chain(parsing: "eip155:\(evm)").id == row.id)
                #expect(try Chain(parsing: "0x" + String(evm, radix: 16)).id == row.id)
            }
        }
        let gnosis = try Chain(parsing: "eip155:100")
        #expect(
            [gnosis.id, gnosis.displayName, gnosis.explorerURL(txHash: "0xab") ?? ""]
                == ["eip155:100", "EVM chain 100", "https://blockscan.com/tx/0xab"]
        )
        #expect(try Chain(parsing: "custom:My.Chain").explorerURL(txHash: "x") == nil)
    }
}
