/// Where a device keeps its identity (Specs/devices.md, "Device identity"): the library asks it
/// for the device's identity and gives it a new one to keep; the private keys go nowhere else.
/// An app implements it over its own key store (the Keychain on Apple platforms, with
/// `DeviceIdentity.withSeedBytes(_:)` and `DeviceIdentity(seedBytes:)`); the CLI uses
/// `FileDeviceKeyStore`.
public protocol DeviceKeyStore: Sendable {
    /// The identity kept, or `nil` if none is.
    func load() async throws -> DeviceIdentity?
    /// Keeps `identity`; called once, when the device makes its identity.
    func save(_ identity: DeviceIdentity) async throws
}
