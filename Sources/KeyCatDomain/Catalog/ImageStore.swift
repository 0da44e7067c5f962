/// Where product images are kept (architecture §2: up to 5 per product). Images are addressed by
/// the SHA-256 of their bytes, so identical bytes are stored once. Storing and loading may wait on
/// a database (on Postgres the images live in it, so every server serves them): both suspend.
public protocol ImageStore: Sendable {
    /// Checks `bytes` (format recognised by content, size limit) without storing anything.
    ///
    /// - Throws: a validation error for an unknown format or an image over the size limit.
    func inspect(_ bytes: [UInt8]) throws(KeyCatError) -> ProductImage

    /// Stores `bytes` and returns their reference; storing the same bytes again is a no-op.
    func store(_ bytes: [UInt8]) async throws(KeyCatError) -> ProductImage

    /// The bytes of a stored image.
    func load(_ image: ProductImage) async throws(KeyCatError) -> [UInt8]
}

/// The rules every image store applies.
public enum ImageRules {
    /// At most 2 MB (2 × 1024 × 1024 bytes) per image.
    public static let maximumBytes = 2 * 1024 * 1024
    /// At most 5 images per product.
    public static let maximumPerProduct = 5

    /// The format of `bytes`, recognised by their content, not by any file name: a well-formed
    /// JPEG, PNG, GIF or WebP header with sides of 1 to ``ImageHeader/maximumSide`` pixels (see
    /// ``ImageHeader``); nil for anything else.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        ImageHeader(bytes)?.format
    }
}
