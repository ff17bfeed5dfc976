import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus
@testable import TxLedgerTestSupport

/// Each provider against a loopback server that answers in its API's documented shapes.
@Suite struct StatusProviderTests {
    /// Refreshes `record` once against a server answering with `handler`.
    static func refresh(
        _ record: TransactionRecord,
        key: String,
        _ handler: @escaping ChainServer.Handler
    ) async throws -> (RefreshResult, [ChainServer.Request]) {
        let harness = try await RefreshHarness([record])
        let server = try await ChainServer.start(handler)
        let summary = try await harness.refresher([key: try server.endpoint()]).refreshPending()
        let requests = await server.requests
        await server.stop()
        return (try #require(summary.results.first), requests)
    }

    // MARK: - EVM

    @Test func evmReceiptWithStatusOneConfirmsAtTheBlockTime() async throws {
        let record = try StatusFixture.evmSend()
        let (result, requests) = try await Self.refresh(record, key: "ethereum") { request in
            switch request.rpcMethod {
            case "eth_getTransactionReceipt": .rpcResult(ChainResponses.receipt(record.txHash!, status: "0x1"))
            case "eth_getBlockByNumber": .rpcResult(ChainResponses.block)
            default: .http(400, "{}")
            }
        }
        #expect(result.outcome == .changed)
        #expect(result.record.status == .confirmed)
        #expect(result.record.confirmedAt == Date(timeIntervalSince1970: TimeInterval(ChainResponses.blockTime)))
        #expect(result.record.statusEvidence == .proof)
        // Block 0x1b4; gasUsed 0x4dc (1244) × effectiveGasPrice 0x4a817c800 (20 gwei) wei.
        #expect(result.record.blockNumber == 436 && result.record.feePaid?.string == "0.00002488")
        #expect(requests.map(\.rpcMethod) == ["eth_getTransactionReceipt", "eth_getBlockByNumber"])
        #expect(requests[0].rpcParams == [.string(record.txHash!)])
        #expect(requests[1].rpcParams == [.string("0x1b4"), .bool(false)])
    }

    @Test func evmConfirmationWithoutBlockTimeWhenTheBlockLookupFails() async throws {
        let record = try StatusFixture.evmSend()
        let (result, _) = try await Self.refresh(record, key: "ethereum") { request in
            request.rpcMethod == "eth_getTransactionReceipt"
                ? .rpcResult(ChainResponses.receipt(record.txHash!, status: "0x1")) : .http(503, "busy")
        }
        #expect(result.record.status == .confirmed)
        #expect(result.record.confirmedAt == nil)
    }

    @Test func evmReceiptWithStatusZeroFailsAsReverted() async throws {
        let record = try StatusFixture.evmSend()
        let (result, _) = try await Self.refresh(record, key: "ethereum") { request in
            .rpcResult(ChainResponses.receipt(record.txHash!, status: "0x0"))
        }
        #expect(result.record.status == .failed)
        #expect(result.record.failureReason == "reverted" && result.record.statusEvidence == .proof)
        #expect(
            result.record.blockNumber == 436 && result.record.feePaid?.string == "0.00002488",
            "a revert pays its gas"
        )
    }

    @Test func evmNoReceiptButInTheMempoolIsPending() async throws {
        let record = try StatusFixture.evmSend(status: nil)
        let (result, requests) = try await Self.refresh(record, key: "ethereum") { request in
            switch request.rpcMethod {
            case "eth_getTransactionReceipt": .rpcResult("null")
            case "eth_getTransactionByHash":
                .rpcResult(ChainResponses.mempoolTransaction(record.txHash!, nonce: "0x15"))
            default: .http(400, "{}")
            }
        }
        #expect(result.previousStatus == .broadcasted)
        #expect(result.record.status == .pending)
        #expect(requests.map(\.rpcMethod) == ["eth_getTransactionReceipt", "eth_getTransactionByHash"])
    }

    @Test func evmAbsenceAloneNeverFailsATransaction() async throws {
        let record = try StatusFixture.evmSend(nonce: nil)
        let (result, requests) = try await Self.refresh(record, key: "ethereum") { _ in .rpcResult("null") }
        #expect(result.outcome == .unchanged)
        #expect(result.record.status == .pending)
        #expect(requests.map(\.rpcMethod) == ["eth_getTransactionReceipt", "eth_getTransactionByHash"])
    }

    // MARK: - Esplora

    @Test func esploraMapsConfirmedUnconfirmedAndNotFound() async throws {
        let cases: [(Int, String, TransactionStatus, Date?)] = [
            (200, ChainResponses.esploraConfirmed, .confirmed, Date(timeIntervalSince1970: 1_690_168_629)),
            (200, ChainResponses.esploraUnconfirmed, .pending, nil),
            (404, ChainResponses.esploraNotFound, .broadcasted, nil),
        ]
        for (status, body, expected, confirmedAt) in cases {
            let record = try StatusFixture.bitcoinSend(status: nil)
            let (result, requests) = try await Self.refresh(record, key: "bitcoin") { _ in .http(status, body) }
            #expect(result.record.status == expected, "\(body)")
            #expect(result.record.confirmedAt == confirmedAt)
            #expect(requests.map(\.path) == ["/tx/\(record.txHash!)"])
            if expected == .confirmed {
                #expect(result.record.blockNumber == 800_000 && result.record.feePaid?.string == "0.0001412")
            } else {
                #expect(result.record.blockNumber == nil && result.record.feePaid == nil)
            }
            #expect(requests.map(\.method) == ["GET"])
        }
    }

    // MARK: - Solana

    @Test func solanaMapsFinalizedErrorsAndEarlierCommitments() async throws {
        let cases: [(String, TransactionStatus, String?)] = [
            (ChainResponses.solanaFinalized, .confirmed, nil),
            (ChainResponses.solanaFailed, .failed, #"error: {"InstructionError":[0,{"Custom":1}]}"#),
            (ChainResponses.solanaConfirmed, .pending, nil),
            ("null", .pending, nil),
        ]
        for (status, expected, reason) in cases {
            let (result, requests) = try await Self.refresh(try StatusFixture.solanaSend(), key: "solana") { request in
                request.rpcMethod == "getTransaction"
                    ? .rpcResult(ChainResponses.solanaTransaction) : .rpcResult(ChainResponses.signatureStatus(status))
            }
            #expect(result.record.status == expected, "\(status)")
            #expect(result.record.failureReason == reason)
            #expect(requests.first?.rpcMethod == "getSignatureStatuses")
            #expect(
                requests.first?.rpcParams == [
                    .array([.string(StatusFixture.solanaSignature)]),
                    .object(["searchTransactionHistory": .bool(true)]),
                ]
            )
            if expected.isTerminal {
                // The slot of the status; the block time and the fee (5000 lamports) of getTransaction.
                #expect(result.record.blockNumber == 48 && result.record.feePaid?.string == "0.000005")
                #expect(requests.map(\.rpcMethod) == ["getSignatureStatuses", "getTransaction"])
            } else {
                #expect(requests.map(\.rpcMethod) == ["getSignatureStatuses"])
            }
        }
        #expect(
            try await Self.refresh(try StatusFixture.solanaSend(), key: "solana") { _ in
                .rpcResult(ChainResponses.signatureStatus(ChainResponses.solanaFinalized))
            }.0.record.confirmedAt == nil
        )
    }

    @Test func solanaConfirmsWithoutTimeAndFeeWhenGetTransactionFails() async throws {
        let (result, _) = try await Self.refresh(try StatusFixture.solanaSend(), key: "solana") { request in
            request.rpcMethod == "getTransaction"
                ? .http(503, "busy") : .rpcResult(ChainResponses.signatureStatus(ChainResponses.solanaFinalized))
        }
        #expect(result.record.status == .confirmed && result.record.blockNumber == 48)
        #expect(result.record.feePaid == nil && result.record.confirmedAt == nil)
    }

    @Test func cosmosMapsCodeZeroOtherCodesAndNotFound() async throws {
        let hash = Fixture.hex(1, digits: 64).uppercased()
        let log = "insufficient funds: 5uatom is smaller than 10uatom: insufficient funds"
        let cases: [(Int, String, TransactionStatus, String?, Date?)] = [
            (
                200, ChainResponses.cosmosTx(hash, code: 0, rawLog: ""), .confirmed, nil,
                Date(timeIntervalSince1970: TimeInterval(ChainResponses.cosmosConfirmedAt))
            ),
            (200, ChainResponses.cosmosTx(hash, code: 5, rawLog: log, codespace: "sdk"), .failed, log, nil),
            (200, ChainResponses.cosmosTx(hash, code: 11, rawLog: "", codespace: "sdk"), .failed, "code 11 (sdk)", nil),
            (404, ChainResponses.cosmosNotFound(hash), .pending, nil, nil),
        ]
        for (status, body, expected, reason, confirmedAt) in cases {
            let (result, requests) = try await Self.refresh(try StatusFixture.cosmosSend(), key: "cosmos") { _ in
                .http(status, body)
            }
            #expect(result.record.status == expected, "\(body.prefix(80))")
            #expect(result.record.failureReason == reason)
            #expect(result.record.confirmedAt == confirmedAt)
            #expect(result.record.blockNumber == (status == 200 ? 20_512_345 : nil))
            // 5000 uatom, paid whether the transaction succeeded or not.
            #expect(result.record.feePaid?.string == (status == 200 ? "0.005" : nil))
            #expect(requests.map(\.path) == ["/cosmos/tx/v1beta1/txs/\(hash)"])
        }
    }

    @Test func aCosmosFeeIsKeptOnlyInTheChainsNativeDenomination() async throws {
        let hash = Fixture.hex(1, digits: 64).uppercased()
        let cases: [(String, String?)] = [
            (#"[{"denom":"uatom","amount":"5000"}]"#, "0.005"),
            (
                #"[{"denom":"ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2","amount":"5000"}]"#,
                nil
            ),
            (#"[{"denom":"uatom","amount":"5000"},{"denom":"uosmo","amount":"1"}]"#, nil),
            ("[]", nil),
        ]
        for (fee, expected) in cases {
            let (result, _) = try await Self.refresh(try StatusFixture.cosmosSend(), key: "cosmos") { _ in
                .http(200, ChainResponses.cosmosTx(hash, code: 0, rawLog: "", fee: fee))
            }
            #expect(result.record.status == .confirmed)
            #expect(result.record.feePaid?.string == expected, "\(fee)")
        }
    }

    // MARK: - THORChain and MayaChain

    @Test func thorchainSwapIsConfirmedOnlyOnceSwappedAndSent() async throws {
        let cases: [(String, TransactionStatus, String?)] = [
            (ChainResponses.thorNotObserved, .pending, nil),
            (ChainResponses.thorStatus(observed: true), .pending, nil),
            (ChainResponses.thorStatus(observed: true, swapDone: true), .pending, nil),
            (
                ChainResponses.thorStatus(observed: true, swapDone: true, outboundSigned: true, outMemo: "OUT:ABCD"),
                .confirmed, nil
            ),
            (ChainResponses.thorStatus(observed: true, refund: true), .failed, "refunded"),
            (
                ChainResponses.thorStatus(observed: true, swapDone: true, outboundSigned: true, outMemo: "REFUND:ABCD"),
                .failed, "refunded"
            ),
        ]
        for (body, expected, reason) in cases {
            let record = try StatusFixture.thorSwap()
            let (result, requests) = try await Self.refresh(record, key: "thorchain") { _ in .http(200, body) }
            #expect(result.record.status == expected, "\(body.suffix(160))")
            #expect(result.record.failureReason == reason)
            #expect(requests.map(\.path) == ["/thorchain/tx/status/\(record.txHash!.uppercased())"])
        }
    }

    @Test func swapsStartingOnAnEVMChainAskTheNodeByTheBareUpperCaseHash() async throws {
        let record = try StatusFixture.thorSwap(provider: .mayachain, chain: "ethereum")
        let (result, requests) = try await Self.refresh(record, key: "mayachain") { _ in
            .http(
                200,
                ChainResponses.thorStatus(observed: true, swapDone: true, outboundSigned: true, outMemo: "OUT:ABCD")
            )
        }
        #expect(result.record.status == .confirmed)
        #expect(requests.map(\.path) == ["/mayachain/tx/status/\(record.txHash!.dropFirst(2).uppercased())"])
    }
}
