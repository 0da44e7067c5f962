import KeyCatInfrastructure

/// A set of postings summed up as one number, so that two sets can be compared without seeking
/// one's rows in the other: how many postings there are, and the wrapping sum of a 64-bit hash
/// of each (term, listing, weight). Equal sets give equal digests; sets that differ in any
/// posting give different ones but with a chance of 2⁻⁶⁴ per comparison, since the hash is
/// Swift's `Hasher` (SipHash, seeded anew in each process, so no stored or chosen set can be
/// made to collide). Both digests of a comparison are taken in one process.
///
/// `db check` compares the digest of `search_terms` with that of every document's forward terms
/// (``SearchMaintenance/problems(limit:)``): one scan of each in place of a key look-up per
/// posting. `search reindex` does the same first (``SearchMaintenance/reindex(progress:)``), and
/// when they agree it trusts the forward terms rather than seeking each listing's postings.
struct SearchPostingDigest: Equatable {
    private(set) var count = 0
    private var sum: UInt64 = 0

    mutating func add(term: String, listing: Int64, weight: Int) {
        var hasher = Hasher()
        var term = term
        term.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(listing)
        hasher.combine(weight)
        sum &+= UInt64(UInt(bitPattern: hasher.finalize()))
        count += 1
    }

    /// Adds a listing's forward terms (a `search_documents.terms` text).
    mutating func add(forwardTerms text: String, of listing: Int64) {
        for (term, weight) in SearchIndex.parseTerms(text) { add(term: term, listing: listing, weight: weight) }
    }

    /// The digest of every row of `search_terms`, read in key order ``rowsPerRead`` at a time
    /// (a Postgres answer is held whole in memory until it is read).
    static func ofPostings(on connection: some SQLConnection) throws -> SearchPostingDigest {
        var digest = SearchPostingDigest()
        var after: (term: String, listing: Int64)?
        while true {
            var last: (term: String, listing: Int64)?
            var rows = 0
            let (condition, arguments): (String, [SQLValue]) = after.map {
                ("WHERE (term, product_id) > (?, ?)", [.text($0.term), .integer($0.listing)])
            } ?? ("", [])
            try connection.forEach(
                "SELECT term, product_id, weight FROM search_terms \(condition) ORDER BY term, product_id LIMIT \(rowsPerRead)",
                arguments) { row in
                let posting = (term: row.string(0), listing: row.int64(1))
                digest.add(term: posting.term, listing: posting.listing, weight: row.int(2))
                last = posting
                rows += 1
            }
            guard rows == rowsPerRead, let last else { return digest }
            after = last
        }
    }

    /// The digest of every document's forward terms.
    static func ofForwardTerms(on connection: some SQLConnection) throws -> SearchPostingDigest {
        var digest = SearchPostingDigest()
        try SearchIndex.forEachForwardTermsPage(on: connection) { documents in
            for document in documents { digest.add(forwardTerms: document.terms, of: document.id) }
        }
        return digest
    }

    /// Whether `search_terms` holds exactly every document's forward terms, in the snapshot of
    /// the transaction `connection` is in.
    static func postingsAreForwardTerms(on connection: some SQLConnection) throws -> Bool {
        try ofForwardTerms(on: connection) == ofPostings(on: connection)
    }

    static var rowsPerRead: Int { 100_000 }
}
