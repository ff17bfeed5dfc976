/// The facts of a signature request (personal_sign, eth_signTypedData_v4, SIWE): the message
/// the user signed and the resulting signature. The signing method is the record's `method`.
public struct SignatureDetails: Hashable, Sendable {
    /// The message as shown to the user (text, or the typed-data JSON); up to 1 MiB.
    public let message: String
    public let signature: String?

    public init(message: String, signature: String? = nil) throws {
        self.message = try TextField.message.validate(message, field: "message")
        self.signature = try TextField.line(max: 4096).validate(signature, field: "signature")
    }
}
