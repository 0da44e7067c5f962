// Page cursors come back from clients in `?cursor=`: any text at all.
// Contract: a cursor decodes to a position or throws `invalid_cursor`; a cursor this codec wrote
// decodes to the position it was written for, and only under the query it was written for.
import Foundation
@testable import KeyCatData
@testable import KeyCatDomain

private let codec = HMACPageCursorCodec(key: Array(repeating: 0x5A, count: 32))
private let query = "products:newest:category=keyboard"

@_cdecl("LLVMFuzzerTestOneInput")
public func pageCursorFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    do {
        let position = try codec.decode(String(decoding: bytes, as: UTF8.self), query: query)
        // Only a cursor this codec wrote passes the tag; re-encoding gives the same text back.
        FuzzContract.expect(codec.encode(position, query: query) == String(decoding: bytes, as: UTF8.self),
                            "an accepted cursor has one spelling")
    } catch {
        FuzzContract.expect(error.code == .invalidCursor, "cursor errors are invalid_cursor, got \(error.code)")
    }

    var tail = FuzzTail(bytes)
    let position = CursorPosition(sortKey: tail.int64(), id: tail.int64())
    let cursor = codec.encode(position, query: query)
    FuzzContract.expect((try? codec.decode(cursor, query: query)) == position, "encode then decode is the identity")
    FuzzContract.expect((try? codec.decode(cursor, query: query + "&seller=1")) == nil, "a cursor belongs to its query")
    return 0
}
