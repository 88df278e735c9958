/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64).
///
/// The same seed gives the same numbers on every platform and Swift version, which is what lets a
/// failing `checkModel` run replay from the seed it prints.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; advanced by a fixed odd constant per number.
    public private(set) var state: UInt64

    /// Creates a generator whose sequence is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`, by multiply-high so the result does not depend on the standard
    /// library's algorithm for `Int.random(in:using:)`, which may change between releases.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "SplitMix64.next(below:) needs a positive bound, got \(bound)")
        return Int(UInt64(bound).multipliedFullWidth(by: next()).high)
    }
}
