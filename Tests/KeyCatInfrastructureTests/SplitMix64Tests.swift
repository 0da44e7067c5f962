import KeyCatInfrastructure
import Testing

/// The one seeded generator against the reference algorithm's outputs, so every seeded run
/// (synthetic catalogs, the simulator's faults, payment simulations, the kill test's moments)
/// draws the same sequence it always has.
@Suite("SplitMix64 matches the reference algorithm")
struct SplitMix64Tests {
    // Vigna's splitmix64.c, first five outputs. Seed 1234567 is the sequence Rosetta Code's
    // "Pseudo-random numbers/Splitmix64" task publishes (6457827717110365317, …).
    @Test("the first outputs for a seed are the reference ones", arguments: [
        (UInt64(0), [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
                     0xF88B_B8A8_724C_81EC, 0x1B39_896A_51A8_749B] as [UInt64]),
        (UInt64(1_234_567), [0x599E_D017_FB08_FC85, 0x2C73_F084_5854_0FA5, 0x883E_BCE5_A3F2_7C77,
                             0x3FBE_F740_E917_7B3F, 0xE3B8_3467_08CB_5ECD]),
    ])
    func referenceOutputs(seed: UInt64, expected: [UInt64]) {
        var generator = SplitMix64(seed: seed)
        let outputs = (0..<expected.count).map { _ in generator.next() }
        #expect(outputs == expected)
    }

    @Test("a chance of 0 is never taken and draws nothing; a chance of 1 always is")
    func chance() {
        var generator = SplitMix64(seed: 2026)
        var untouched = SplitMix64(seed: 2026)
        let zeroTaken = generator.chance(0)
        #expect(!zeroTaken)
        let (next, untouchedNext) = (generator.next(), untouched.next())
        #expect(next == untouchedNext)
        let ones = (0..<100).map { _ in generator.chance(1) }
        #expect(ones.allSatisfy { $0 })
    }
}
