import Foundation
import KeyCatDomain

/// A whole catalog as JSON (`seed/catalog.json`): sellers, and products that name their seller
/// by the seller's `key`.
public struct CatalogFile: Sendable, Decodable {
    public struct Seller: Sendable, Decodable {
        /// The name products use to refer to this seller within the file.
        public var key: String
        public var email: String
        public var nick: String
        public var businessNumber: String?
        public var representative: String?
        public var openedOn: String?

        enum CodingKeys: String, CodingKey {
            case key, email, nick, representative
            case businessNumber = "business_number"
            case openedOn = "opened_on"
        }
    }

    public var sellers: [Seller]
    public var products: [ProductFile]

    /// Reads a catalog from JSON.
    ///
    /// - Throws: a validation error naming the key that is missing or of the wrong type.
    public static func decode(_ data: Data) throws(KeyCatError) -> CatalogFile {
        try JSONInput.decode(CatalogFile.self, from: data)
    }
}
