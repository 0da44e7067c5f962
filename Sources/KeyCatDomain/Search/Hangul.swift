/// The arithmetic of Hangul syllables (Unicode §3.12): a precomposed syllable is
/// `0xAC00 + (initial × 21 + medial) × 28 + final`, so its initial consonant (초성) and its jamo
/// are computed, not looked up.
enum Hangul {
    static let syllables: ClosedRange<UInt32> = 0xAC00...0xD7A3
    /// The compatibility jamo a keyboard types on its own (ㄱ…ㅣ).
    static let compatibilityJamo: ClosedRange<UInt32> = 0x3131...0x318E

    /// The 19 initial consonants as compatibility jamo, in syllable order.
    private static let initials: [Unicode.Scalar] = [
        "ㄱ", "ㄲ", "ㄴ", "ㄷ", "ㄸ", "ㄹ", "ㅁ", "ㅂ", "ㅃ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅉ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ",
    ]

    static func isSyllable(_ scalar: Unicode.Scalar) -> Bool { syllables.contains(scalar.value) }
    static func isCompatibilityJamo(_ scalar: Unicode.Scalar) -> Bool { compatibilityJamo.contains(scalar.value) }

    /// The initial consonant of a syllable, as the compatibility jamo a user types (갈 → ㄱ).
    static func initial(of syllable: Unicode.Scalar) -> Unicode.Scalar {
        initials[Int((syllable.value - syllables.lowerBound) / (21 * 28))]
    }

    /// The initial consonants of a word of syllables (저소음 → ㅈㅅㅇ); nil when any character is
    /// not a syllable.
    static func initials(of word: String) -> String? {
        var result = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            guard isSyllable(scalar) else { return nil }
            result.append(initial(of: scalar))
        }
        return String(result)
    }

    /// Whether a word is initial consonants only (ㄱㅊ), the shorthand of the as-you-type box.
    static func isInitialsOnly(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy { initials.contains($0) }
    }

    /// The key a partially typed word completes on: each syllable spelled out as its jamo, and a
    /// lone consonant typed last taken as the initial of the next syllable (기계ㅅ → 기계 + ᄉ, a
    /// prefix of 기계식's spelling). Latin and other characters stay as they are.
    static func spelling(_ word: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            if isSyllable(scalar) {
                let index = scalar.value - syllables.lowerBound
                result.append(Unicode.Scalar(0x1100 + index / (21 * 28))!)
                result.append(Unicode.Scalar(0x1161 + index % (21 * 28) / 28)!)
                if index % 28 != 0 { result.append(Unicode.Scalar(0x11A7 + index % 28)!) }
            } else if let position = initials.firstIndex(of: scalar) {
                result.append(Unicode.Scalar(0x1100 + UInt32(position))!)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The spelling of a word whose last syllable's final consonant is still being typed and may
    /// yet open the next syllable (갈 may become 가로): the final moved to the next initial. Nil
    /// when the last syllable has no final, or a final no initial spells.
    static func spellingWithFinalReopened(_ word: String) -> String? {
        guard let last = word.unicodeScalars.last, isSyllable(last) else { return nil }
        let index = last.value - syllables.lowerBound
        let final = index % 28
        // The finals (1…27) that are single consonants, mapped to their initial's index.
        let finalToInitial: [UInt32: UInt32] = [1: 0, 2: 1, 4: 2, 7: 3, 8: 5, 16: 6, 17: 7, 19: 9, 20: 10,
                                                 21: 11, 22: 12, 23: 14, 24: 15, 25: 16, 26: 17, 27: 18]
        guard final != 0, let initial = finalToInitial[final] else { return nil }
        let open = Unicode.Scalar(last.value - final)!
        var head = String(word.unicodeScalars.dropLast())
        head.unicodeScalars.append(open)
        return spelling(head) + String(Unicode.Scalar(0x1100 + initial)!)
    }

    /// Josa (조사) that attach to a noun in running text: `키보드를`, `축이`. Longer ones first.
    static let particles = ["으로", "에서", "에게", "까지", "부터", "처럼", "보다", "하고",
                            "을", "를", "이", "가", "은", "는", "의", "에", "로", "와", "과", "도", "만"]

    private static let particleScalars = particles.map { Array($0.unicodeScalars) }

    /// A word without the particle at its end, when one is there and at least `minimum`
    /// syllables are left; nil otherwise. Text being indexed strips down to one syllable (축이 is
    /// also 축); a query keeps two (각도, 나이 are words, not 각 and 나 with a particle).
    static func stem(of word: String, leaving minimum: Int) -> String? {
        let scalars = Array(word.unicodeScalars)
        if scalars.allSatisfy(isSyllable) {
            // Syllables are whole characters and compare as scalars (the particles are syllables too).
            for particle in particleScalars where particle.count <= scalars.count && scalars.suffix(particle.count).elementsEqual(particle) {
                if scalars.count - particle.count >= minimum { return SearchAnalyzer.string(scalars.dropLast(particle.count)) }
            }
            return nil
        }
        let count = scalars.count
        for particle in particles where word.hasSuffix(particle) {
            let length = particle.unicodeScalars.count
            if count - length >= minimum { return String(String.UnicodeScalarView(word.unicodeScalars.dropLast(length))) }
        }
        return nil
    }
}
