import Foundation

/// The figures of one run, in the order they were measured: printed as a table as they come,
/// and written as one JSON object at the end.
final class BenchReport {
    private(set) var entries: [(name: String, measurement: Measurement)] = []

    /// The scenario names of the JSON object, all present after a run of every group.
    static let requiredNames = [
        "record.batch", "record.single", "merge.100k", "bundle.export.100k", "bundle.import.100k",
        "bundle.reimport.100k",
        "bundle.bytes_per_record", "bundle.decode.1m", "delta.export.1m", "delta.bytes", "query.first_page.1m",
        "query.filtered_page.1m", "query.page_1000.1m", "query.pending.1m", "query.first_page.1m_blocks",
        "query.filtered_page.1m_blocks", "query.page_1000.1m_blocks", "query.pending.1m_blocks", "memory.import.1m_mb",
        "folder.sync.nothing_new", "folder.sync.write_10", "folder.sync.read_10", "folder.bytes",
        "cli.export_full.100k", "cli.import.100k", "cli.merge.100k", "cli.record_json.100k",
        "devices.import_signed.100k", "devices.folder_key_bytes", "devices.folder_extra_bytes",
        "devices.evaluate_hostile.4096",
    ]

    /// The required names this run did not produce.
    var missingNames: [String] {
        let produced = Set(entries.map(\.name))
        return Self.requiredNames.filter { !produced.contains($0) }
    }

    func add(_ name: String, _ measurement: Measurement) {
        entries.append((name, measurement))
        print(Self.row(name, measurement))
    }

    static var header: String {
        pad("scenario", 30) + pad("value", 14, right: true) + "  " + pad("unit", 10) + pad("baseline", 14, right: true)
            + pad("ratio", 8, right: true) + "  baseline is"
    }

    static func row(_ name: String, _ m: Measurement) -> String {
        pad(name, 30) + pad(format(m.value), 14, right: true) + "  " + pad(m.unit, 10)
            + pad(m.baseline.map(format) ?? "-", 14, right: true)
            + pad(m.ratio.map { String(format: "%.2f", $0) } ?? "-", 8, right: true)
            + "  " + (m.baselineName ?? "")
    }

    /// `{"name": {"value": ..., "unit": ..., "baseline": ..., "ratio": ...}, ...}`, keys in run order.
    func json() throws -> String {
        let encoder = JSONEncoder()
        let lines = try entries.map { entry in
            let key = String(decoding: try encoder.encode(entry.name), as: UTF8.self)
            return "  \(key): " + String(decoding: try encoder.encode(entry.measurement), as: UTF8.self)
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    private static func format(_ value: Double) -> String {
        switch abs(value) {
        case 0: "0"
        case 1000...: String(format: "%.0f", value)
        case 10...: String(format: "%.1f", value)
        case 0.1...: String(format: "%.3f", value)
        default: String(format: "%.4f", value)
        }
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(0, width - text.count))
        return right ? gap + text : text + gap
    }
}
