/// SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators", OOPSLA
/// 2014; the constants of Vigna's `splitmix64.c`): a small, fast generator whose whole output
/// follows from its seed, so a synthetic catalog, a fault run or a payment simulation replays
/// from the seed it printed. Not for secrets: ``SecureRandom`` is.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `rate` (never for 0 or less, and then drawing nothing).
    package mutating func chance(_ rate: Double) -> Bool {
        rate > 0 && Double.random(in: 0..<1, using: &self) < rate
    }
}
