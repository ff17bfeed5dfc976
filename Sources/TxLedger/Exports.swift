// The facade re-exports the public types of the layers below (ARCHITECTURE.md), so that an app
// writes `import TxLedger` only, as swift-nio's `NIO` re-exports `NIOCore`.
@_exported import TxLedgerBundle
@_exported import TxLedgerCore
@_exported import TxLedgerFolderSync
@_exported import TxLedgerMembership
@_exported import TxLedgerReplication
@_exported import TxLedgerSodium
@_exported import TxLedgerStatus
@_exported import TxLedgerStore
