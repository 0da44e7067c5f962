import Foundation

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

    /// Byte for byte, as the stores read a statement (and as the hash reads it): `String`'s own
    /// `==` would call two texts equal that differ only in their Unicode normalisation.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        var (left, right) = (lhs.sql, rhs.sql)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    package func hash(into hasher: inout Hasher) {
        // Native strings give their bytes without a copy; any other is copied first, so that
        // equal texts hash alike whatever their storage.
        if sql.utf8.withContiguousStorageIfAvailable({ Self.hashSample(of: $0, into: &hasher) }) == nil {
            Array(sql.utf8).withUnsafeBufferPointer { Self.hashSample(of: $0, into: &hasher) }
        }
    }

    /// The length and ``sampledBytes`` bytes spread evenly, from the end, where statements of
    /// one shape differ most.
    private static func hashSample(of bytes: UnsafeBufferPointer<UInt8>, into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        let stride = Swift.max(1, bytes.count / sampledBytes)
        var index = bytes.count - 1
        var taken = 0
        while index >= 0, taken < sampledBytes {
            hasher.combine(bytes[index])
            index -= stride
            taken += 1
        }
    }
}
