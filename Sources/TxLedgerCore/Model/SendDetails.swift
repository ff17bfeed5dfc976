/// The facts of a send: to whom, how much of which token, and what it cost.
public struct SendDetails: Hashable, Sendable {
    public let toAddress: String
    public let amount: DecimalAmount
    public let token: Token
    public let tokenLogo: String?
    public let feeEstimate: DecimalAmount?
    public let memo: String?

    /// `toAddress` is validated against the record's chain by `TransactionFacts`.
    public init(
        toAddress: String,
        amount: DecimalAmount,
        token: Token,
        tokenLogo: String? = nil,
        feeEstimate: DecimalAmount? = nil,
        memo: String? = nil
    ) throws {
        self.toAddress = toAddress
        self.amount = amount
        self.token = token
        self.tokenLogo = try TextField.url.validate(tokenLogo, field: "tokenLogo")
        self.feeEstimate = feeEstimate
        self.memo = try TextField.memo.validate(memo, field: "memo")
    }
}
