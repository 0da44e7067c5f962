import KeyCatDomain

/// How the vocabulary's counts (`search_words.products`) move for the listings of one write:
/// one listing's edit, a bulk write's batch (a catch-up's or a rebuild's 500 listings, a sweep
/// of deleted ones), or a seller's listings leaving the catalog or coming back.
///
/// A listing's moves are what it lent (`old`) against what it now lends (`new`): a word in
/// both moves nothing. A batch's moves are summed by word and written after every document and
/// posting of the batch, each word once (or twice, when some listings took it up and others
/// let it go), in the order of `search_words`' key. So a batch of 500 listings sends about as
/// many count statements as it has distinct words rather than one per listing and word, and it
/// takes the vocabulary's row locks in the order every other writer of them does, which a batch
/// taking them listing by listing did not (two such writers on Postgres could deadlock, and one
/// was run again). When the counts add up the result is the one a listing at a time gives; a
/// count already wrong (which `db check` reports) may end another way, since a word's additions
/// are written before its removals rather than listing by listing, and a rebuild recounts it.
///
/// Words are told apart by their bytes (``SearchTerm``), as the stores' key does.
struct VocabularyTally {
    /// One word's moves.
    struct Move {
        var key: String
        var kind: String
        /// The word's spellings, when some listing took it up or keeps it (what a new row is
        /// made from).
        var entry: SearchAnalyzer.VocabularyEntry?
        var added = 0
        var removed = 0
    }

    private var byWord: [Word: Move] = [:]

    private struct Word: Hashable {
        var key: SearchTerm
        var kind: String

        init(_ key: String, _ kind: String) {
            self.key = SearchTerm(key)
            self.kind = kind
        }
    }

    /// Records one listing's moves: `old` as ``SearchIndex/parseWords(_:)`` reads a document's
    /// words, `new` in key order.
    mutating func record(removing old: [(kind: String, key: String)], adding new: [SearchAnalyzer.VocabularyEntry]) {
        // Kept in key order when written; sorted again in case a document predates that order.
        let old = old.sorted { SearchAnalyzer.VocabularyEntry.precedes(($0.key, $0.kind), ($1.key, $1.kind)) }
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            let newKey = j < new.count ? (key: new[j].key, kind: new[j].kind.rawValue) : nil
            if let newKey, i == old.count || SearchAnalyzer.VocabularyEntry.precedes(newKey, (old[i].key, old[i].kind)) {
                let word = Word(newKey.key, newKey.kind)
                byWord[word, default: Move(key: newKey.key, kind: newKey.kind)].added += 1
                // The first listing to take it up names a new row, as when they were written one by one.
                if byWord[word]?.entry == nil { byWord[word]?.entry = new[j] }
                j += 1
            } else if let newKey, !SearchAnalyzer.VocabularyEntry.precedes((old[i].key, old[i].kind), newKey) {
                // Neither comes first: the same (word, kind), as bytes.
                i += 1
                j += 1
            } else {
                byWord[Word(old[i].key, old[i].kind), default: Move(key: old[i].key, kind: old[i].kind)].removed += 1
                i += 1
            }
        }
    }

    /// Records words an unlisted listing has without lending them: their rows are made, at zero
    /// when new, so that a reinstatement, which counts a seller's listings back up row by row
    /// (``SearchIndex/recount(listingsOf:listed:on:)``), finds them.
    mutating func keep(_ entries: [SearchAnalyzer.VocabularyEntry]) {
        for entry in entries {
            let word = Word(entry.key, entry.kind.rawValue)
            if byWord[word]?.entry == nil {
                byWord[word, default: Move(key: entry.key, kind: entry.kind.rawValue)].entry = entry
            }
        }
    }

    /// Records the words of a listing coming back into the catalog (its seller reinstated):
    /// counted up, each on the row it kept while out (``keep(_:)``).
    mutating func countBack(_ words: [(kind: String, key: String)]) {
        for word in words {
            byWord[Word(word.key, word.kind), default: Move(key: word.key, kind: word.kind)].added += 1
        }
    }

    /// Whether nothing moves.
    var isEmpty: Bool { byWord.isEmpty }

    /// Every word's moves, in the order of `search_words`' key.
    var moves: [Move] {
        byWord.values.sorted { SearchAnalyzer.VocabularyEntry.precedes(($0.key, $0.kind), ($1.key, $1.kind)) }
    }
}
