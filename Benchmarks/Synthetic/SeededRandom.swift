import Foundation

/// A small, fast, seedable generator (xoshiro256**, seeded through SplitMix64):
/// the same seed gives the same numbers on every machine and Swift version,
/// which `SystemRandomNumberGenerator` does not promise.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var s0, s1, s2, s3: UInt64

    /// A generator whose numbers depend only on `seed`.
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Uniform in (0, 1]: never 0, so logarithms are safe.
    public mutating func unit() -> Double {
        Double((next() >> 11) + 1) / Double(1 << 53)
    }

    /// Standard normal (Box–Muller).
    public mutating func normal() -> Double {
        let u = unit(), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// Exponential with the given mean.
    public mutating func exponential(mean: Double) -> Double {
        -mean * log(unit())
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        unit() <= p
    }

    /// An index drawn with the given (positive) weights.
    public mutating func pick(weights: [Double]) -> Int {
        var target = unit() * weights.reduce(0, +)
        for (index, weight) in weights.enumerated() {
            target -= weight
            if target <= 0 { return index }
        }
        return weights.count - 1
    }
}
