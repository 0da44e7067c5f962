/// A listing found by a search, with the key of its place in the results' order: a cursor
/// resumes after it.
public struct SearchHit: Sendable, Hashable {
    public var product: Product
    public var key: Int64

    public init(product: Product, key: Int64) {
        self.product = product
        self.key = key
    }
}
