import Foundation

/// What a query asks of the index: every group must match; a listing's text score is the sum,
/// over the groups, of the best weight among the terms it has (an exact term counting twice,
/// a prefix or forgiven typo once), plus the weights of the whole words it has and a bonus
/// when its title holds the query's text without spaces. Built by ``init(_:synonyms:typos:initials:)``
/// from the query and what the store knows (synonyms, the vocabulary), so every store runs the
/// same plan.
public struct SearchPlan: Sendable, Hashable {
    /// One requirement: a listing matches it by any of its terms.
    public struct Group: Sendable, Hashable {
        /// Terms matched exactly, counting twice their weight.
        public var exact: [String] = []
        /// Prefixes of terms: any term starting with one matches, counting its weight once
        /// (twice when it is the prefix itself).
        public var prefixes: [String] = []
        /// Terms standing for a misspelt word, counting their weight once.
        public var forgiven: [String] = []

        public var isEmpty: Bool { exact.isEmpty && prefixes.isEmpty && forgiven.isEmpty }
    }

    public var groups: [Group]
    /// Whole-word terms whose weight adds to the score when a listing has them.
    public var bonuses: [String]
    /// The Latin prefixes of the plan under which the store's index has more than
    /// ``maximumPrefixWords`` words, each with the only words it matches (``narrowed(_:titleWords:)``):
    /// a prefix of one or two characters (`m`, `sa`) as the whole word alone, as one Hangul
    /// syllable is; a longer one (`gater`) as itself and the commonest title words under it.
    /// Filled by the store that planned the query; empty in a plan made without one.
    public var narrowedPrefixes: [String: [String]] = [:]

    /// The most words a Latin prefix is spelt out into; past them it is narrowed
    /// (``narrowed(_:titleWords:)``).
    public static let maximumPrefixWords = 64

    /// What a prefix under which the index has more than ``maximumPrefixWords`` words matches:
    /// for one or two characters, the whole word alone; for more, the word itself and the
    /// commonest of `titleWords` under it — title words of listed listings with how many listed
    /// listings have them, the vocabulary's `word` entries — by that count, then by their bytes,
    /// up to ``maximumPrefixWords`` in all.
    ///
    /// Words only in descriptions count for nothing here. Until 2026-12-02 every broad prefix was
    /// the whole word, so a seller who put 64 made-up words under `gater` into one description
    /// (`gatera01 gatera02 …`) made `gater` stop finding Gateron for every buyer; now they would
    /// need 64 title words each in more listed listings than Gateron is.
    public static func narrowed(_ prefix: String, titleWords: some Sequence<(word: String, listings: Int)>) -> [String] {
        guard keepsTitleWords(prefix) else { return [prefix] }
        let commonest = titleWords
            .filter { $0.listings > 0 && $0.word != prefix && $0.word.hasPrefix(prefix) }
            .sorted { $0.listings != $1.listings ? $0.listings > $1.listings : SearchTerm($0.word) < SearchTerm($1.word) }
            .prefix(maximumPrefixWords - 1)
        return [prefix] + commonest.map(\.word)
    }

    /// Whether a broad `prefix` keeps title words under it (three characters or more), so a
    /// store reads its vocabulary for them; a shorter one is the whole word alone.
    package static func keepsTitleWords(_ prefix: String) -> Bool { prefix.unicodeScalars.count >= 3 }

    /// Narrows the plan's prefixes under which `terms` (every term of the index) has more than
    /// ``maximumPrefixWords`` words, from `titleWords` (each title word of a listed listing with
    /// how many have it): what a store's planner decides from its index, for a reference search
    /// over listings in memory.
    public mutating func narrowBroadPrefixes(terms: Set<String>, titleWords: [String: Int]) {
        for prefix in Set(groups.flatMap(\.prefixes)) where terms.count(where: { $0.hasPrefix(prefix) }) > Self.maximumPrefixWords {
            narrowedPrefixes[prefix] = Self.narrowed(prefix, titleWords: titleWords.map { (word: $0.key, listings: $0.value) })
        }
    }

    /// Each title word of the listed listings among `products` with how many of them have it:
    /// the vocabulary's `word` counts, for a reference search over listings in memory.
    package static func titleWords(of products: some Sequence<Product>) -> [String: Int] {
        var counts: [String: Int] = [:]
        for product in products where product.isListed {
            for entry in SearchAnalyzer.vocabulary(title: product.title, tags: product.tags) where entry.kind == .word {
                counts[entry.key, default: 0] += 1
            }
        }
        return counts
    }

    /// The query's text without spaces: a title containing it scores ``phraseBonus`` more.
    public var phrase: String

    /// What a title holding the whole query adds to the text score.
    public static let phraseBonus = 32
    /// The most groups a query's synonyms may spread into (see ``init(_:synonyms:typos:initials:)``).
    public static let maximumGroups = 40

    /// The plan for `query`.
    ///
    /// - Parameters:
    ///   - synonyms: for a word (or a Hangul word's stem) of the query, its synonyms. A word with
    ///     synonyms matches by any of them: its groups and a synonym's are combined pairwise
    ///     ((A and B) or C is (A or C) and (B or C)), as long as the query stays within
    ///     ``maximumGroups``; past that, the synonyms are left out.
    ///   - typos: for a Latin word of 5–20 code points (``SearchQuery/typoCandidates``) that no
    ///     term starts with, the vocabulary's words one edit away.
    ///   - initials: for a word of initials, the whole words they abbreviate.
    public init(_ query: SearchQuery, synonyms: [String: [String]] = [:], typos: [String: [String]] = [:],
                initials: [String: [String]] = [:]) {
        var groups: [Group] = []
        var bonuses: [String] = []
        for word in query.words {
            var alternatives: [[Group]] = [Self.groups(for: word, typos: typos[word.text] ?? [], initials: initials[word.text] ?? [])]
            let stem = word.script == .hangul ? Hangul.stem(of: word.text, leaving: 2) : nil
            if word.script == .hangul { bonuses.append("=" + (stem ?? word.text)) }
            for synonym in (synonyms[word.text] ?? []) + (stem.flatMap { synonyms[$0] } ?? []) {
                for synonymWord in SearchAnalyzer.words(SearchAnalyzer.normalize(synonym)) where synonymWord.script != .jamo {
                    alternatives.append(Self.groups(for: synonymWord, typos: [], initials: []))
                }
            }
            var combined = alternatives[0]
            for alternative in alternatives.dropFirst() {
                let product = combined.flatMap { left in alternative.map { right in Self.merge(left, right) } }
                guard groups.count + product.count <= Self.maximumGroups else { break }
                combined = product
            }
            groups += combined
        }
        // A word given twice asks for nothing more, but would cost every candidate its look-ups
        // again: each requirement and bonus is kept once, in the order written.
        var seenGroups: Set<Group> = [], seenBonuses: Set<String> = []
        self.groups = groups.filter { seenGroups.insert($0).inserted }
        self.bonuses = bonuses.filter { seenBonuses.insert($0).inserted }
        self.phrase = query.compact
    }

    /// A plan of `groups` alone, without a text: no bonuses, no phrase (a tag's list without a
    /// query is read as a search of the tag's group).
    public init(requiring groups: [Group]) {
        self.groups = groups
        bonuses = []
        phrase = ""
    }

    /// The groups one word asks for.
    static func groups(for word: SearchAnalyzer.Word, typos: [String], initials: [String]) -> [Group] {
        switch word.script {
        case .hangul:
            let text = Hangul.stem(of: word.text, leaving: 2) ?? word.text
            let syllables = Array(text.unicodeScalars)
            guard syllables.count > 1 else {
                // One syllable: titles and tags index syllables; elsewhere it is found as a whole word.
                return [Group(exact: [text, "=" + text])]
            }
            return syllables.indices.dropLast().map { index in
                Group(exact: [String(String.UnicodeScalarView([syllables[index], syllables[index + 1]]))])
            }
        case .latin:
            return [Group(exact: [], prefixes: [word.text], forgiven: typos)]
        case .jamo:
            // Initials match the whole words they abbreviate; a group with no term matches nothing.
            return [Group(exact: initials.map { "=" + $0 })]
        }
    }

    private static func merge(_ left: Group, _ right: Group) -> Group {
        Group(exact: left.exact + right.exact.filter { !left.exact.contains($0) },
              prefixes: left.prefixes + right.prefixes.filter { !left.prefixes.contains($0) },
              forgiven: left.forgiven + right.forgiven.filter { !left.forgiven.contains($0) })
    }

    /// A listing's text score for this plan, from its terms (``SearchAnalyzer/terms(title:content:tags:spec:)``)
    /// and its title; nil when it does not match. The reference the stores' SQL is checked against.
    public func textScore(terms: [String: Int], title: String) -> Int? {
        var total = 0
        for group in groups {
            guard let score = Self.score(of: group, in: terms, narrowed: narrowedPrefixes) else { return nil }
            total += score
        }
        for bonus in bonuses { total += terms[bonus] ?? 0 }
        let titleKey = SearchAnalyzer.titleKey(title)
        if !phrase.isEmpty && titleKey.contains(phrase) { total += Self.phraseBonus }
        return min(total, Self.maximumTextScore)
    }

    /// The highest text score a relevance key holds.
    public static let maximumTextScore = 2_047

    /// The relevance key of a listing with `textScore`: the text score, then in stock, units sold
    /// (as many as their value buys at the listing's price, ``StandingSales/rankedUnits(at:)``)
    /// and bookmarks as powers of two (capped at 15), then its rating in tenths of a star.
    public static func relevanceKey(textScore: Int, product: Product, sales: StandingSales) -> Int64 {
        func bucket(_ count: Int) -> Int64 {
            count <= 0 ? 0 : Int64(min(15, Int.bitWidth - count.leadingZeroBitCount))
        }
        let rating = RatingScore.score(sum: product.ratingSum, count: product.ratingCount) / 100
        return Int64(min(textScore, maximumTextScore)) * 2_097_152 + (product.stock > 0 ? 1_048_576 : 0)
            + bucket(sales.rankedUnits(at: product.pricing.salePrice)) * 65_536 + bucket(product.bookmarkCount) * 1_024 + rating
    }

    /// The score a group gives a listing with these terms (and their weights), or nil when the
    /// listing does not match it. The reference the stores' SQL is checked against.
    ///
    /// - Parameter narrowed: prefixes that match only the words listed (``narrowedPrefixes``).
    public static func score(of group: Group, in terms: [String: Int], narrowed: [String: [String]] = [:]) -> Int? {
        var best: Int?
        for term in group.exact { if let weight = terms[term] { best = max(best ?? 0, weight * 2) } }
        for prefix in group.prefixes {
            if let words = narrowed[prefix] {
                for word in words { if let weight = terms[word] { best = max(best ?? 0, word == prefix ? weight * 2 : weight) } }
                continue
            }
            for (term, weight) in terms where term.hasPrefix(prefix) && !term.hasPrefix("=") && !term.hasPrefix("#") {
                best = max(best ?? 0, term == prefix ? weight * 2 : weight)
            }
        }
        for term in group.forgiven { if let weight = terms[term] { best = max(best ?? 0, weight) } }
        return best
    }
}
