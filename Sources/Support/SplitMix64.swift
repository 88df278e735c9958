/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64): the one this
/// package draws from wherever a seed must fix a run (model checks, simulated workers, benchmarks).
///
/// The same seed gives the same numbers on every platform and Swift version, which is what lets a
/// failing `checkModel` run replay from the seed it prints. Not for anything that needs real randomness.
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's whole state; advanced by a fixed odd constant per number.
    package private(set) var state: UInt64

    /// Creates a generator whose sequence is determined by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`, by multiply-high so the result does not depend on the standard
    /// library's algorithm for `Int.random(in:using:)`, which may change between releases.
    package mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "SplitMix64.next(below:) needs a positive bound, got \(bound)")
        return Int(UInt64(bound).multipliedFullWidth(by: next()).high)
    }
}
