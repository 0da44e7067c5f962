/// A statement's SQL text as the key of a connection's statement cache, hashed from a sample of
/// its bytes rather than all of them.
///
/// Every call looks its statement up by text, and a search page's text is about 2 KB: hashing
/// all of it (SipHash over every byte) took 1–2 µs a look-up, more than binding its arguments.
/// The key hashes the length and 32 bytes spread evenly over the text, so a look-up costs the
/// same whatever the statement's length. Equality still compares the whole text, so two texts
/// that sample alike only share a bucket, never a statement.
package struct SQLStatementKey: Hashable {
    /// The statement's text.
    package let sql: String

    /// How many bytes of the text the hash reads.
    static let sampledBytes = 32

    package init(_ sql: String) { self.sql = sql }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.sql == rhs.sql }

    package func hash(into hasher: inout Hasher) {
        let utf8 = sql.utf8
        hasher.combine(utf8.count)
        // Native strings give their bytes without a copy; a bridged one is hashed whole.
        let sampled: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.isEmpty else { return }
            let stride = Swift.max(1, bytes.count / Self.sampledBytes)
            var index = bytes.count - 1  // from the end, where statements of one shape differ most
            var taken = 0
            while index >= 0, taken < Self.sampledBytes {
                hasher.combine(bytes[index])
                index -= stride
                taken += 1
            }
        }
        if sampled == nil { hasher.combine(sql) }
    }
}
