/// Response bodies in the shapes the APIs document (Ethereum JSON-RPC, Esplora, Solana RPC,
/// Cosmos SDK REST gateway, THORNode), trimmed of fields no provider reads where they are long.
enum ChainResponses {
    // MARK: - EVM JSON-RPC

    /// A receipt in block `block`; `l1Fee` as an OP Stack rollup's receipts carry it.
    static func receipt(_ hash: String, status: String, block: String = "0x1b4", l1Fee: String? = nil) -> String {
        """
        {"blockHash":"0xa957d47df264a31badc3ae823e10ac1d444b098d9b73d204c40426e57f47e8c3","blockNumber":"\(block)",\
        \(l1Fee.map { #""l1Fee":"\#($0)","# } ?? "")\
        "contractAddress":null,"cumulativeGasUsed":"0x33bc","effectiveGasPrice":"0x4a817c800",\
        "from":"0x000000000000000000000000000000000000cafe","gasUsed":"0x4dc","logs":[],"logsBloom":"0x\(String(repeating: "0", count: 512))",\
        "status":"\(status)","to":"0x0000000000000000000000000000000000000001","transactionHash":"\(hash)","transactionIndex":"0x1","type":"0x2"}
        """
    }

    /// Block 0x1b4, mined at 0x55ba467c = 2015-07-30T15:45:00Z.
    static let block = """
        {"number":"0x1b4","hash":"0xdc0818cf78f21a8e70579cb46a43643f78291264dda342ae31049421c82d21ae",\
        "parentHash":"0xe99e022112df268087ea7eafaf4790497fd21dbeeb6bd7a1721df161a6657a54","nonce":"0x689056015818adbe",\
        "miner":"0xbb7b8287f3f0a933474a79eae42cbca977791171","gasLimit":"0x1388","gasUsed":"0x0","timestamp":"0x55ba467c",\
        "transactions":[],"uncles":[]}
        """
    static let blockTime = 1_438_271_100

    /// A transaction the node has in its mempool: no block yet.
    static func mempoolTransaction(_ hash: String, nonce: String) -> String {
        """
        {"blockHash":null,"blockNumber":null,"from":"0x000000000000000000000000000000000000cafe","gas":"0x5208",\
        "maxFeePerGas":"0x59682f00","maxPriorityFeePerGas":"0x3b9aca00","hash":"\(hash)","input":"0x","nonce":"\(nonce)",\
        "to":"0x0000000000000000000000000000000000000001","transactionIndex":null,"value":"0xde0b6b3a7640000","type":"0x2",\
        "chainId":"0x1","v":"0x1","r":"0x8f2b6d3a","s":"0x3c1e9a7b"}
        """
    }

    static let rateLimitError =
        #"{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"daily request count exceeded, request rate limited"}}"#

    // MARK: - Esplora

    /// `GET /tx/:txid`: a transaction with its fee (sats) and status, inputs and outputs trimmed.
    static func esploraTransaction(_ status: String) -> String {
        """
        {"txid":"\(Fixture.hex(1, digits: 64))","version":2,"locktime":0,"vin":[],"vout":[],\
        "size":223,"weight":561,"fee":14120,"status":\(status)}
        """
    }
    static let esploraConfirmed = esploraTransaction(
        """
        {"confirmed":true,"block_height":800000,\
        "block_hash":"00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054","block_time":1690168629}
        """
    )
    static let esploraUnconfirmed = esploraTransaction(#"{"confirmed":false}"#)
    static let esploraNotFound = "Transaction not found"

    /// `GET /tx/:txid/outspend/:vout`: unspent, or spent by `txid` (confirmed or in the mempool).
    static func esploraOutspend(spentBy txid: String?, confirmed: Bool = true) -> String {
        guard let txid else { return #"{"spent":false}"# }
        let status =
            confirmed
            ? #"{"confirmed":true,"block_height":800001,"block_hash":"00000000000000000001c1c0d2c6b6c0b1d2c3e4f5a6b7c8d9e0f1a2b3c4d5e6","block_time":1690169229}"#
            : #"{"confirmed":false}"#
        return #"{"spent":true,"txid":"\#(txid)","vin":0,"status":\#(status)}"#
    }

    // MARK: - Solana

    static func signatureStatus(_ status: String) -> String { #"{"context":{"slot":82},"value":[\#(status)]}"# }
    static let solanaFinalized =
        #"{"slot":48,"confirmations":null,"err":null,"status":{"Ok":null},"confirmationStatus":"finalized"}"#
    static let solanaConfirmed =
        #"{"slot":72,"confirmations":10,"err":null,"status":{"Ok":null},"confirmationStatus":"confirmed"}"#
    static let solanaFailed = """
        {"slot":48,"confirmations":null,"err":{"InstructionError":[0,{"Custom":1}]},\
        "status":{"Err":{"InstructionError":[0,{"Custom":1}]}},"confirmationStatus":"finalized"}
        """

    /// `getTransaction` of a finalized transfer: slot 48, its block time, a fee of 5000 lamports.
    static let solanaTransaction = """
        {"slot":48,"blockTime":1690168629,"meta":{"err":null,"fee":5000,"preBalances":[1000000,0],\
        "postBalances":[495000,500000],"logMessages":[]},"transaction":{"signatures":["\(StatusFixture.solanaSignature)"]}}
        """

    // MARK: - Cosmos SDK

    /// A transaction that paid `fee` (the `auth_info.fee.amount` coins, JSON).
    static func cosmosTx(
        _ hash: String,
        code: Int,
        rawLog: String,
        codespace: String = "",
        fee: String = #"[{"denom":"uatom","amount":"5000"}]"#
    ) -> String {
        """
        {"tx":{"body":{"messages":[{"@type":"/cosmos.bank.v1beta1.MsgSend"}],"memo":""},\
        "auth_info":{"fee":{"amount":\(fee),"gas_limit":"200000"}},"signatures":[]},\
        "tx_response":{"height":"20512345","txhash":"\(hash)","codespace":"\(codespace)","code":\(code),"data":"",\
        "raw_log":"\(rawLog)","logs":[],"info":"","gas_wanted":"200000","gas_used":"81234","tx":null,\
        "timestamp":"2024-05-01T10:00:00Z","events":[]}}
        """
    }
    static let cosmosConfirmedAt = 1_714_557_600  // 2024-05-01T10:00:00Z
    static func cosmosNotFound(_ hash: String) -> String {
        #"{"code":5,"message":"tx not found: \#(hash)","details":[]}"#
    }

    // MARK: - THORNode

    static func thorStatus(
        observed: Bool,
        swapDone: Bool = false,
        outboundSigned: Bool = false,
        refund: Bool = false,
        outMemo: String? = nil
    ) -> String {
        let outTxs =
            outMemo.map {
                #"[{"id":"8A4C0B9E4F3D2C1B0A9F8E7D6C5B4A3F2E1D0C9B8A7F6E5D4C3B2A1F0E9D8C7B","chain":"BTC","memo":"\#($0)"}]"#
            } ?? "[]"
        return """
            {"tx":{"id":"ABCD","chain":"THOR","from_address":"thor1qzd5jnzz8qm9wy2h8x8v9z3m4wv0q0vqx0r5ld",\
            "coins":[{"asset":"THOR.RUNE","amount":"10050000000"}],"memo":"=:BTC.BTC:bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"},\
            "planned_out_txs":[{"chain":"BTC","to_address":"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",\
            "coin":{"asset":"BTC.BTC","amount":"123456"},"refund":\(refund)}],"out_txs":\(outTxs),\
            "stages":{"inbound_observed":{"started":\(observed),"pre_confirmation_count":1,"final_count":1,"completed":\(observed)},\
            "inbound_finalised":{"completed":\(observed)},"swap_status":{"pending":\(!swapDone)},\
            "swap_finalised":{"completed":\(swapDone)},"outbound_delay":{"remaining_delay_blocks":0,"remaining_delay_seconds":0,"completed":\(swapDone)},\
            "outbound_signed":{"scheduled_outbound_height":1234,"blocks_since_scheduled":2,"completed":\(outboundSigned)}}}
            """
    }
    static let thorNotObserved = #"{"stages":{"inbound_observed":{"started":false,"completed":false}}}"#
}
