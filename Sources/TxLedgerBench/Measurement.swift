import Foundation

/// One figure of a run: its value, and the baseline measured in the same run when there is one.
/// `ratio` is always our cost over the baseline's: 1.5 means 1.5 times the baseline's time (for a
/// rate, the baseline's rate over ours), so lower is better and 1 is the limit.
struct Measurement: Encodable {
    let value: Double
    let unit: String
    let baseline: Double?
    let ratio: Double?
    /// What the baseline is, for the table.
    let baselineName: String?

    /// A time or a size, and optionally the baseline's.
    static func cost(_ value: Double, unit: String, baseline: Double? = nil, name: String? = nil) -> Measurement {
        Measurement(
            value: value,
            unit: unit,
            baseline: baseline,
            ratio: baseline.map { value / $0 },
            baselineName: name
        )
    }

    /// A rate (higher is better), and optionally the baseline's rate.
    static func rate(_ value: Double, unit: String, baseline: Double, name: String) -> Measurement {
        Measurement(value: value, unit: unit, baseline: baseline, ratio: baseline / value, baselineName: name)
    }

    private enum CodingKeys: String, CodingKey { case value, unit, baseline, ratio }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(unit, forKey: .unit)
        // null, not absent, when there is no baseline: the format names both keys.
        try container.encode(baseline, forKey: .baseline)
        try container.encode(ratio, forKey: .ratio)
    }
}
