import Foundation
import PropertyBased
import Testing

@testable import TxLedgerCore

/// `RecordFields` keeps only the fields a record has, in field order, behind a mask of which
/// are present: whatever order fields are set (by subscript or `append`), replaced and removed
/// in, it reads as a table of every field would.
struct RecordFieldsStorageTests {
    @Test func everyFieldFitsTheMask() {
        #expect(RecordField.last <= 128)
    }

    @Test func setsAndRemovalsInAnyOrderReadAsATable() async {
        // One operation as one number: a field, what to write (nothing, an integer, a text or
        // a long text) and a value.
        let operations = Gen.int(in: 0...(RecordField.last * 4 * 11 - 1)).array(of: 1...200)
        await propertyCheck(count: 300, input: operations) { operations in
            var fields = RecordFields(vault: "v")
            var table: [RecordField: FieldValue] = [:]
            for operation in operations {
                let field = RecordField(rawValue: operation % RecordField.last + 1)!
                let action = operation / RecordField.last % 4
                let value = operation / RecordField.last / 4 - 5
                let written: FieldValue? =
                    switch action {
                    case 0: nil
                    case 1: .integer(Int64(value))
                    case 2: .text(value == 0 ? "" : "text \(value)")
                    default: .text(String(repeating: "long text ", count: abs(value) + 2))
                    }
                // `append` for some writes: in order or not, it sets as the subscript does.
                if let written, value % 2 == 0 { fields.append(field, written) } else { fields[field] = written }
                table[field] = written
            }
            for field in RecordField.all {
                #expect(fields[field] == table[field], "\(field.name)")
                #expect(fields.has(field) == (table[field] != nil), "\(field.name)")
            }
            let firstEmpty = RecordField.all.first { table[$0] == .text("") }
            #expect(fields.firstEmptyText == firstEmpty)
        }
    }
}
