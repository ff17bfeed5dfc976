/// The facts of a swap: both sides, where they live, and who routed it.
public struct SwapDetails: Hashable, Sendable {
    public let fromToken: Token
    public let fromAmount: DecimalAmount
    /// The chain the swap leaves from; the record's chain when not given.
    public let fromChain: Chain
    public let fromTokenLogo: String?
    public let toToken: Token
    /// The quoted amount out.
    public let toAmount: DecimalAmount
    /// The minimum payout the user accepted ("min. payout" on the in-progress card).
    public let minimumPayout: DecimalAmount?
    /// The chain the swap arrives on; `fromChain` when not given.
    public let toChain: Chain
    public let toTokenLogo: String?
    public let provider: SwapProvider
    /// The route as the provider describes it, e.g. `ETH -> USDC via Uniswap v3`.
    public let route: String?

    public init(
        fromToken: Token,
        fromAmount: DecimalAmount,
        fromChain: Chain,
        fromTokenLogo: String? = nil,
        toToken: Token,
        toAmount: DecimalAmount,
        minimumPayout: DecimalAmount? = nil,
        toChain: Chain? = nil,
        toTokenLogo: String? = nil,
        provider: SwapProvider,
        route: String? = nil
    ) throws {
        self.fromToken = fromToken
        self.fromAmount = fromAmount
        self.fromChain = fromChain
        self.fromTokenLogo = try TextField.url.validate(fromTokenLogo, field: "fromTokenLogo")
        self.toToken = toToken
        self.toAmount = toAmount
        self.minimumPayout = minimumPayout
        self.toChain = toChain ?? fromChain
        self.toTokenLogo = try TextField.url.validate(toTokenLogo, field: "toTokenLogo")
        self.provider = provider
        self.route = try TextField.line(max: 1024).validate(route, field: "route")
    }
}
