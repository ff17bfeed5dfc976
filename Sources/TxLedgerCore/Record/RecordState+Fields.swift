import Foundation

extension RecordState {
    /// This record as its fields, every present one set (a frame writer leaves out the
    /// explorer page that the chain's default gives: `frameFields`).
    var fields: RecordFields { fields(withDefaultExplorerUrl: true) }

    /// The fields a frame holds: `fields` but for an explorer page that the chain's default
    /// gives (a reader derives the same default), which is not made at all.
    var frameFields: RecordFields { fields(withDefaultExplorerUrl: false) }

    /// Whether `other` holds exactly this state: equal, and every text the same bytes. `==`
    /// compares texts by Unicode canonical equivalence, so two notes that differ only in how an
    /// accent is written are equal, and a merge that took one for the other as "unchanged" would
    /// leave two replicas holding different bytes for good (Specs/crdt.md, "Equal stamps").
    package func isIdentical(to other: RecordState) -> Bool {
        // The fields are made only for states `==` calls equal: every other pair differs.
        self == other && fields.isIdentical(to: other.fields)
    }

    private func fields(withDefaultExplorerUrl: Bool) -> RecordFields {
        var fields = RecordFields(vault: facts.value.vaultId)
        appendFacts(to: &fields, withDefaultExplorerUrl: withDefaultExplorerUrl)
        appendRegisters(to: &fields)
        fields.newer = newerFields
        return fields
    }

    /// The fields of this record but its facts (`RecordField.isFact`): `timestamp_ms`, from
    /// which the frame writes other times, the facts stamp and every other register; no newer
    /// field. A stored frame whose facts stay as they are is written as those facts' bytes and
    /// these fields encoded (`FrameEncoder.frame(_:keepingFactsOf:)`).
    var registerFields: RecordFields {
        var fields = RecordFields(vault: facts.value.vaultId)
        fields.set(.timestampMs, facts.value.timestamp.millis)
        appendRegisters(to: &fields)
        return fields
    }

    /// Appends the facts' fields: but for the facts stamp, every field `RecordField.isFact`.
    private func appendFacts(to fields: inout RecordFields, withDefaultExplorerUrl: Bool) {
        let facts = self.facts.value
        // Each field is set once, mostly in increasing order: appended.
        fields.set(.kind, facts.kind.rawValue)
        fields.set(.chain, facts.chain.id)
        fields.set(.timestampMs, facts.timestamp.millis)
        fields.set(.txHash, facts.txHash)
        fields.set(.explorerUrl, withDefaultExplorerUrl || !facts.hasDefaultExplorerUrl ? facts.explorerUrl : nil)
        fields.set(.fiatValue, facts.fiatValue?.string)
        fields.set(.fromAddress, facts.fromAddress)
        fields.set(.appDomain, facts.app?.domain)
        fields.set(.appUri, facts.app?.uri)
        fields.set(.appScheme, facts.app?.scheme)
        fields.set(.method, facts.method)
        for field in RecordField.extraFacts where !facts.extras.isEmpty {
            fields.setKeyed(field, facts.extras[field.key])
        }
        switch facts.details {
        case let .send(send):
            fields.set(.toAddress, send.toAddress)
            fields.set(.amount, send.amount.string)
            fields.set(send.token, .tokenSymbol, .tokenContract, .tokenDecimals)
            fields.set(.tokenLogo, send.tokenLogo)
            fields.set(.feeEstimate, send.feeEstimate?.string)
            fields.set(.memo, send.memo)
        case let .swap(swap):
            fields.set(swap.fromToken, .fromTokenSymbol, .fromTokenContract, .fromTokenDecimals)
            fields.set(.fromAmount, swap.fromAmount.string)
            fields.set(.fromChain, swap.fromChain.id)
            fields.set(.fromTokenLogo, swap.fromTokenLogo)
            fields.set(swap.toToken, .toTokenSymbol, .toTokenContract, .toTokenDecimals)
            fields.set(.toAmount, swap.toAmount.string)
            fields.set(.minPayout, swap.minimumPayout?.string)
            fields.set(.toChain, swap.toChain.id)
            fields.set(.toTokenLogo, swap.toTokenLogo)
            fields.set(.provider, swap.provider.name)
            fields.set(.route, swap.route)
        case let .signature(signature):
            fields.set(.message, signature.message)
            fields.set(.signature, signature.signature)
        }
    }

    /// Appends the facts stamp and every other register's fields (and `last_checked_at_ms`).
    private func appendRegisters(to fields: inout RecordFields) {
        fields.set(.facts, self.facts.stamp)
        fields.set(.pending, status.pending)
        if let terminal = status.terminal {
            fields.set(.terminal, terminal.stamp)
            fields.set(.terminalStatus, terminal.value.status.rawValue)
            fields.set(.confirmedAtMs, terminal.value.confirmedAt?.millis)
            fields.set(.failureReason, terminal.value.failureReason)
            for field in RecordField.statusDetails where !terminal.value.details.isEmpty {
                fields.setKeyed(field, terminal.value.details[field.key])
            }
            if terminal.value.checkedOnChain { fields.set(.terminalChecked, 1) }
        }
        if let rival = status.rival {
            fields.set(.rival, rival.stamp)
            fields.set(.rivalStatus, rival.value.status.rawValue)
            fields.set(.rivalBlockNumber, rival.value.details[RecordField.blockNumber.key].flatMap { Int64($0) })
            fields.set(.rivalFeePaid, rival.value.details[RecordField.feePaid.key])
            if rival.value.checkedOnChain { fields.set(.rivalChecked, 1) }
        }
        if let inferred = status.inferred {
            fields.set(.inferred, inferred.stamp)
            fields.set(.inferredReason, inferred.value)
        }
        fields.set(.lastCheckedAtMs, lastCheckedAt?.millis)
        if let note {
            fields.set(.note, note.stamp)
            fields.set(.note, note.value)
        }
        if let labels {
            fields.set(.labels, labels.stamp)
            fields.set(.labels, RecordFields.encodeLabels(labels.value))
        }
        if let hidden {
            fields.set(.hidden, hidden.stamp)
            fields.set(.hidden, Int64(hidden.value ? 1 : 0))
        }
        if let cleared {
            fields.set(.cleared, cleared.stamp)
            fields.set(.clearedThroughTime, cleared.through.time)
            fields.set(.clearedThroughReplica, cleared.through.replica.rawValue)
        }
    }

    /// The record `fields` hold, validated as input is.
    /// - Throws: `LedgerError.invalidInput` naming the first invalid field.
    package init(fields: RecordFields) throws {
        try self.init(facts: try Self.facts(fields), registers: fields)
    }

    /// The facts `fields` hold, validated as input is.
    private static func facts(_ fields: RecordFields) throws -> TransactionFacts {
        func text(_ field: RecordField) throws -> String? { try fields.text(field) }
        func token(
            _ symbol: RecordField,
            _ contract: RecordField,
            _ decimals: RecordField,
            _ name: String
        ) throws
            -> Token
        {
            try Token(
                symbol: try text(symbol) ?? "",
                contract: try text(contract),
                decimals: try fields.integer(decimals).map { try Self.int($0, decimals) },
                field: name
            )
        }
        let details: TransactionDetails
        switch try required(text(.kind), .kind) {
        case TransactionKind.send.rawValue:
            details = .send(
                try SendDetails(
                    toAddress: try required(text(.toAddress), .toAddress),
                    amount: try required(fields.amount(.amount), .amount),
                    token: try token(.tokenSymbol, .tokenContract, .tokenDecimals, "token"),
                    tokenLogo: try text(.tokenLogo),
                    feeEstimate: try fields.amount(.feeEstimate),
                    memo: try text(.memo)
                )
            )
        case TransactionKind.swap.rawValue:
            details = .swap(
                try SwapDetails(
                    fromToken: try token(.fromTokenSymbol, .fromTokenContract, .fromTokenDecimals, "from_token"),
                    fromAmount: try required(fields.amount(.fromAmount), .fromAmount),
                    fromChain: try Chain(parsing: try required(text(.fromChain), .fromChain)),
                    fromTokenLogo: try text(.fromTokenLogo),
                    toToken: try token(.toTokenSymbol, .toTokenContract, .toTokenDecimals, "to_token"),
                    toAmount: try required(fields.amount(.toAmount), .toAmount),
                    minimumPayout: try fields.amount(.minPayout),
                    toChain: try Chain(parsing: try required(text(.toChain), .toChain)),
                    toTokenLogo: try text(.toTokenLogo),
                    provider: try SwapProvider(try required(text(.provider), .provider)),
                    route: try text(.route)
                )
            )
        case TransactionKind.signature.rawValue:
            details = .signature(
                try SignatureDetails(message: try required(text(.message), .message), signature: try text(.signature))
            )
        case let other:
            throw LedgerError.invalidInput(field: "kind", reason: "'\(other)' is not send, swap or signature")
        }
        // The details are moved into the facts, not copied: a copy retained each of their
        // texts, then released them (3% of validating a bundle's records).
        return try TransactionFacts(
            vaultId: fields.vault,
            chain: try Chain(parsing: try required(text(.chain), .chain)),
            timestamp: Date(millis: try required(fields.integer(.timestampMs), .timestampMs)),
            txHash: try text(.txHash),
            explorerUrl: try text(.explorerUrl),
            fiatValue: try fields.amount(.fiatValue),
            fromAddress: try text(.fromAddress),
            app: try AppMetadata(
                domain: Self.nonEmpty(try text(.appDomain)),
                uri: Self.nonEmpty(try text(.appUri)),
                scheme: Self.nonEmpty(try text(.appScheme))
            ),
            method: try text(.method),
            extras: try fields.keyed(RecordField.extraFacts),
            details: consume details
        )
    }

    /// The record whose facts are `facts`, with the facts stamp and the other registers that
    /// `fields` hold, validated as input is; `fields`' facts are not read (a merge whose stored
    /// row holds the received facts byte for byte reads only the rest of the row:
    /// `FrameDecoder.record(_:facts:)`).
    /// - Throws: `LedgerError.invalidInput` naming the first invalid field.
    package init(facts: consuming TransactionFacts, registers fields: RecordFields) throws {
        func text(_ field: RecordField) throws -> String? { try fields.text(field) }
        func instant(_ field: RecordField) throws -> Date? {
            try fields.integer(field).map { millis in
                guard (0...Date.maxMillis).contains(millis) else {
                    throw LedgerError.invalidInput(field: field.name, reason: "must lie between 1970 and the year 9999")
                }
                return Date(millis: millis)
            }
        }
        func stamp(_ time: RecordField, _ replica: RecordField, _ name: @autoclosure () -> String) throws -> Stamp? {
            guard let time = try fields.integer(time), let replica = try fields.integer(replica), replica >= 0 else {
                return nil
            }
            return try Stamp.received(time: time, replica: ReplicaID(rawValue: replica), field: name())
        }
        func stamp(_ register: RecordRegister) throws -> Stamp? {
            try stamp(register.stamp.time, register.stamp.replica, "\(register.rawValue) stamp")
        }
        var terminal: Register<StatusUpdate>?
        if let written = try text(.terminalStatus), let stamp = try stamp(.terminal) {
            let status = try Self.terminalStatus(written, .terminalStatus)
            // The same checks as a local status update: metadata fits the status and its
            // limits, and a detail is in its canonical form (a stored or received value is
            // never rewritten).
            let update = try StatusUpdate(
                status,
                confirmedAt: try instant(.confirmedAtMs),
                failureReason: try text(.failureReason),
                details: try fields.keyed(RecordField.statusDetails)
            )
            for field in RecordField.statusDetails {
                guard let value = update.details[field.key], let rule = field.statusDetail else { continue }
                guard try rule.canonical(value, key: field.name, chain: facts.chain) == value else {
                    throw LedgerError.invalidInput(field: field.name, reason: "is not in its chain's canonical form")
                }
            }
            terminal = Register(
                try Self.onChain(update, fields.integer(.terminalChecked), .terminalChecked),
                stamp: stamp
            )
        }
        var rival: Register<StatusUpdate>?
        if let written = try text(.rivalStatus), let stamp = try stamp(.rival) {
            guard terminal != nil else {
                throw LedgerError.invalidInput(
                    field: RecordField.rivalStatus.name,
                    reason: "comes without a terminal outcome"
                )
            }
            let claim = try StatusUpdate(
                try Self.terminalStatus(written, .rivalStatus),
                blockNumber: try fields.integer(.rivalBlockNumber).map { try Self.block($0) },
                feePaid: try fields.amount(.rivalFeePaid)
            )
            // Kept as written (a stored or received value is never rewritten), as the terminal's.
            if let fee = claim.feePaid, try text(.rivalFeePaid) != fee.string {
                throw LedgerError.invalidInput(
                    field: RecordField.rivalFeePaid.name,
                    reason: "is not in its canonical form"
                )
            }
            rival = Register(try Self.onChain(claim, fields.integer(.rivalChecked), .rivalChecked), stamp: stamp)
            // A writer's rival is a claim the terminal one outranks and disagrees with.
            if let rival, let terminal,
                StatusRegister.greater(rival, terminal) == rival || rival.value.agrees(with: terminal.value)
            {
                throw LedgerError.invalidInput(
                    field: RecordField.rivalStatus.name,
                    reason: "is not a claim the terminal outcome outranks and disagrees with"
                )
            }
        }
        let inferred = try stamp(.inferred).map { stamp in
            let update = try StatusUpdate(
                .failed,
                failureReason: try required(text(.inferredReason), .inferredReason),
                evidence: .inference
            )
            // An inference always has a reason (checked above).
            return Register(update.failureReason ?? "", stamp: stamp)
        }
        // The status registers are moved into the record, not copied (as the facts are).
        self.init(
            facts: Register(facts, stamp: try required(stamp(.facts), .factsTime)),
            status: StatusRegister(
                pending: try stamp(.pending),
                terminal: consume terminal,
                inferred: consume inferred,
                rival: consume rival
            ),
            lastCheckedAt: try instant(.lastCheckedAtMs),
            note: try stamp(.note).map {
                Register(try TextField.note.validate(try text(.note), field: "note"), stamp: $0)
            },
            labels: try stamp(.labels).map {
                Register(
                    try TransactionRecord.normalizedLabels(try RecordFields.decodeLabels(try text(.labels))),
                    stamp: $0
                )
            },
            hidden: try stamp(.hidden).map { Register(try Self.flag(try fields.integer(.hidden)), stamp: $0) },
            cleared: try stamp(.cleared).map { mark in
                ClearMark(
                    through: try required(
                        stamp(.clearedThroughTime, .clearedThroughReplica, "cleared_through stamp"),
                        .clearedThroughTime
                    ),
                    stamp: mark
                )
            }
        )
        // Built in place: a state built aside and assigned was copied whole (its copy and its
        // release were a tenth of this initializer's samples).
        if !fields.newer.isEmpty { self = try attaching(fields.newer) }
    }

    /// A terminal status exactly as a writer writes it, as `kind` is: lowercase.
    private static func terminalStatus(_ written: String, _ field: RecordField) throws -> TransactionStatus {
        // Compared with the two terminal names (short strings compare in one step), not looked
        // up among every status's name.
        let status: TransactionStatus? =
            switch written {
            case TransactionStatus.confirmed.rawValue: .confirmed
            case TransactionStatus.failed.rawValue: .failed
            default: nil
            }
        guard let status else {
            throw LedgerError.invalidInput(
                field: field.name,
                reason: "'\(written.prefix(40))' is not confirmed or failed"
            )
        }
        return status
    }

    /// `update` as the chain's answer if `flag` (a `*_checked` field) says so: absent, or 1.
    private static func onChain(_ update: StatusUpdate, _ flag: Int64?, _ field: RecordField) throws -> StatusUpdate {
        switch flag {
        case nil: return update
        case 1: return update.readOnChain
        case let other?: throw LedgerError.invalidInput(field: field.name, reason: "is \(other), not 1 (or absent)")
        }
    }

    /// A block number: from 0 to `Int64.max`.
    private static func block(_ value: Int64) throws -> UInt64 {
        guard value >= 0 else {
            throw LedgerError.invalidInput(field: RecordField.rivalBlockNumber.name, reason: "is negative")
        }
        return UInt64(value)
    }

    private static func int(_ value: Int64, _ field: RecordField) throws -> Int {
        guard let int = Int(exactly: value) else {
            throw LedgerError.invalidInput(field: field.name, reason: "\(value) is out of range")
        }
        return int
    }

    /// A 0 or 1 field (a missing one is 0).
    private static func flag(_ value: Int64?) throws -> Bool {
        switch value ?? 0 {
        case 0: return false
        case 1: return true
        case let other: throw LedgerError.invalidInput(field: "hidden", reason: "is \(other), not 0 or 1")
        }
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value?.isEmpty == false ? value : nil
    }
}

extension RecordFields {
    /// Labels as one text: a JSON array of strings, written as Specs/schema.md ("Labels") says,
    /// which is how Foundation's `JSONEncoder` writes it (`LabelsTextTests` compares the two;
    /// an encoder per record with labels was 3% of encoding the records of a merge).
    static func encodeLabels(_ labels: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, label) in labels.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in label.utf8 { appendEscaped(byte, to: &bytes) }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one UTF-8 byte of a label as the labels' JSON writes it: `"`, `\\` and `/` after a
    /// backslash, five control characters by their letter, the others as `\u00` and two
    /// lowercase hex digits, every other byte as it is.
    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        let letter: Character? =
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): Character(Unicode.Scalar(byte))
            case 0x08: "b"
            case 0x09: "t"
            case 0x0A: "n"
            case 0x0C: "f"
            case 0x0D: "r"
            default: nil
            }
        if let letter {
            bytes += [UInt8(ascii: "\\"), letter.asciiValue!]
        } else if byte < 0x20 {
            let digits = Array("0123456789abcdef".utf8)
            bytes += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        } else {
            bytes.append(byte)
        }
    }

    static func decodeLabels(_ text: String?) throws -> [String] {
        if let text, let labels = plainLabels(text) { return labels }
        guard let data = text?.data(using: .utf8), let labels = try? JSONDecoder().decode([String].self, from: data)
        else {
            throw LedgerError.invalidInput(field: "labels", reason: "is not a JSON array of strings")
        }
        return labels
    }

    /// The labels of `text` if it is written as a writer writes labels without escapes: `[`,
    /// then strings of no `"`, `\` nor control character, in quotes and separated by commas,
    /// then `]`, without spaces; `nil` for any other text, which `JSONDecoder` reads (it reads
    /// these as the same strings: a decoder per record with labels was 3% of validating the
    /// records of the 1M bundle).
    static func plainLabels(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { utf8 -> [String]? in
            guard utf8.count >= 2, utf8.first == UInt8(ascii: "["), utf8.last == UInt8(ascii: "]") else { return nil }
            var labels: [String] = []
            var index = 1
            while index < utf8.count - 1 {
                if !labels.isEmpty {
                    guard utf8[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
                guard index < utf8.count - 1, utf8[index] == UInt8(ascii: "\"") else { return nil }
                let start = index + 1
                var end = start
                while end < utf8.count - 1, utf8[end] != UInt8(ascii: "\"") {
                    guard utf8[end] >= 0x20, utf8[end] != UInt8(ascii: "\\") else { return nil }
                    end += 1
                }
                guard end < utf8.count - 1 else { return nil }
                labels.append(String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<end]), as: UTF8.self))
                index = end + 1
            }
            return labels
        }
    }
}

/// A required field's value.
/// - Throws: `LedgerError.invalidInput` naming `field` if it is missing.
private func required<T>(_ value: T?, _ field: RecordField) throws -> T {
    guard let value else { throw LedgerError.invalidInput(field: field.name, reason: "is missing") }
    return value
}

extension RecordFields {
    /// Sets `field` to `value` if there is one: appended, as fields are mostly set in order.
    fileprivate mutating func set(_ field: RecordField, _ value: Int64?) {
        if let value { append(field, .integer(value)) }
    }

    fileprivate mutating func set(_ field: RecordField, _ value: String?) {
        if let value { append(field, .text(value)) }
    }

    /// Sets the stamp fields of `register`.
    fileprivate mutating func set(_ register: RecordRegister, _ stamp: Stamp?) {
        set(register.stamp.time, stamp?.time)
        set(register.stamp.replica, stamp?.replica.rawValue)
    }

    /// Sets a token's three fields.
    fileprivate mutating func set(
        _ token: Token,
        _ symbol: RecordField,
        _ contract: RecordField,
        _ decimals: RecordField
    ) {
        set(symbol, token.symbol)
        set(contract, token.contract)
        set(decimals, token.decimals.map(Int64.init))
    }

    /// The amount `field` holds, if any.
    /// - Throws: `LedgerError.invalidInput` if it is not a decimal amount.
    fileprivate func amount(_ field: RecordField) throws -> DecimalAmount? {
        try text(field).map { try DecimalAmount($0, field: field.name) }
    }

    /// The fields of `kept` that are present, by key (`RecordField.key`), as text.
    fileprivate func keyed(_ kept: [RecordField]) throws -> [String: String] {
        var values: [String: String] = [:]
        for field in kept {
            if let value = try keyed(field) { values[field.key] = value }
        }
        return values
    }
}
