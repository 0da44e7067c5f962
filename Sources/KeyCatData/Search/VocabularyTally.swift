import KeyCatDomain

/// How the vocabulary's counts (`search_words.products`) move for the listings of one write:
/// one listing's edit, or a bulk write's batch (a catch-up's or a rebuild's 500 listings, a sweep
/// of deleted ones).
///
/// A listing's moves are what it lent (`old`) against what it now lends (`new`): a word in
/// both moves nothing. A batch's moves are summed by word and written after every document and
/// posting of the batch, each word once (or twice, when some listings took it up and others
/// let it go), in the order of `search_words`' key. So a batch of 500 listings sends about as
/// many count statements as it has distinct words rather than one per listing and word, and it
/// takes the rows' locks in the same order as every other writer, which a batch taking them
/// listing by listing did not (two such writers on Postgres could deadlock, and one was run
/// again).
struct VocabularyTally {
    /// One word's moves.
    struct Move {
        var key: String
        var kind: String
        /// The word's spellings, when some listing took it up (what a new row is made from).
        var entry: SearchAnalyzer.VocabularyEntry?
        var added = 0
        var removed = 0
    }

    private var byWord: [Word: Move] = [:]

    private struct Word: Hashable {
        var key: String
        var kind: String
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
                byWord[Word(key: newKey.key, kind: newKey.kind), default: Move(key: newKey.key, kind: newKey.kind)].added += 1
                byWord[Word(key: newKey.key, kind: newKey.kind)]?.entry = new[j]
                j += 1
            } else if let newKey, !SearchAnalyzer.VocabularyEntry.precedes((old[i].key, old[i].kind), newKey) {
                // Neither comes first: the same (word, kind), as bytes.
                i += 1
                j += 1
            } else {
                byWord[Word(key: old[i].key, kind: old[i].kind), default: Move(key: old[i].key, kind: old[i].kind)].removed += 1
                i += 1
            }
        }
    }

    /// Every word's moves, in the order of `search_words`' key.
    var moves: [Move] {
        byWord.values.sorted { SearchAnalyzer.VocabularyEntry.precedes(($0.key, $0.kind), ($1.key, $1.kind)) }
    }
}
