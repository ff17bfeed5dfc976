import Foundation

/// Reads `record --json` input: one record object, an array of them, or what `list --json`
/// prints (`{"items": [...], "nextCursor": ...}`). Errors name the index of the offending
/// record and the field, in one line.
package enum RecordJSONInput {
    package static func decode(_ data: Data) throws -> [TransactionRecord] {
        do {
            return try JSONDecoder().decode(Input.self, from: data).records
        } catch let error as IndexedError {
            throw LedgerError.invalidInput(field: "record \(error.index)", reason: describe(error.underlying))
        } catch {
            throw LedgerError.invalidInput(field: "JSON input", reason: describe(error), underlying: error)
        }
    }

    /// The records of `elements`: a run of a list's records with the commas between them
    /// (`RecordBatches`), decoded as an array.
    static func decodeList(_ elements: Data) throws -> [TransactionRecord] {
        var list = Data("[".utf8)
        list.append(elements)
        list.append(contentsOf: "]".utf8)
        return try JSONDecoder().decode(IndexedList.self, from: list).records
    }

    /// Tells the three shapes apart in the one decoding pass.
    private struct Input: Decodable {
        let records: [TransactionRecord]

        private struct ItemsKey: CodingKey {
            var stringValue: String { "items" }
            var intValue: Int? { nil }
            init() {}
            init?(stringValue: String) { guard stringValue == "items" else { return nil } }
            init?(intValue: Int) { nil }
        }

        init(from decoder: Decoder) throws {
            if (try? decoder.unkeyedContainer()) != nil {
                records = try IndexedList(from: decoder).records
            } else if let envelope = try? decoder.container(keyedBy: ItemsKey.self), envelope.contains(ItemsKey()) {
                records = try envelope.decode(IndexedList.self, forKey: ItemsKey()).records
            } else {
                records = [try TransactionRecord(from: decoder)]
            }
        }
    }

    private struct IndexedError: Error {
        let index: Int
        let underlying: Error
    }

    private struct IndexedList: Decodable {
        let records: [TransactionRecord]

        init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var records: [TransactionRecord] = []
            while !container.isAtEnd {
                let index = container.currentIndex
                do {
                    records.append(try container.decode(TransactionRecord.self))
                } catch {
                    throw IndexedError(index: index, underlying: error)
                }
            }
            self.records = records
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case let error as LedgerError:
            return error.localizedDescription
        case let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context):
            return "\(path(context)) must be \(jsonKind(of: type))"
        case let DecodingError.keyNotFound(key, context):
            return "\(path(context, key)) is required"
        case let DecodingError.dataCorrupted(context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)) is malformed"
        default:
            return "not a record"
        }
    }

    /// What a JSON author calls the kind of value a Swift type decodes from.
    private static func jsonKind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type: "a whole number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "a \(type)"
        }
    }

    private static func path(_ context: DecodingError.Context, _ last: CodingKey? = nil) -> String {
        let keys = (context.codingPath + (last.map { [$0] } ?? [])).filter { $0.intValue == nil }.map(\.stringValue)
        return keys.isEmpty ? "the value" : "field " + keys.joined(separator: ".")
    }
}
