/// Who executed a swap. The providers of the reference wallets are named constants; any other
/// provider is accepted by name. Well-known names are matched without regard to case and
/// stored in their usual spelling (`thorchain` becomes `THORChain`).
public struct SwapProvider: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public static let oneInch = SwapProvider(known: "1inch")
    public static let kyberSwap = SwapProvider(known: "KyberSwap")
    public static let lifi = SwapProvider(known: "LiFi")
    public static let thorchain = SwapProvider(known: "THORChain")
    public static let mayachain = SwapProvider(known: "MayaChain")
    public static let wellKnown: [SwapProvider] = [.oneInch, .kyberSwap, .lifi, .thorchain, .mayachain]

    private init(known name: String) { self.name = name }

    public init(_ name: String) throws {
        let valid = try TextField.line(max: 64).validate(name, field: "provider")
        // A name as it is stored (every stored and received one) is found without lowercasing.
        if let known = Self.wellKnown.first(where: { $0.name == valid }) {
            self = known
            return
        }
        let lowercased = valid.lowercased()
        self.name = Self.wellKnown.first { $0.name.lowercased() == lowercased }?.name ?? valid
    }

    public var description: String { name }
}
