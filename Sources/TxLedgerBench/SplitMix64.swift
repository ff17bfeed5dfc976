/// A small deterministic random generator (SplitMix64), so every run writes the same records.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }

    /// `count` decimal digits.
    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(below(10))) })
    }

    /// `count` lower-case hex digits.
    mutating func hex(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(below(16), radix: 16)) })
    }

    /// `count` symbols of `alphabet`.
    mutating func base58(_ count: Int, from alphabet: [Character]) -> String {
        String((0..<count).map { _ in alphabet[Int(below(UInt64(alphabet.count)))] })
    }
}
