/// Where product images are kept (architecture §2: up to 5 per product). Images are addressed by
/// the SHA-256 of their bytes, so identical bytes are stored once.
public protocol ImageStore: Sendable {
    /// Checks `bytes` (format recognised by content, size limit) without storing anything.
    ///
    /// - Throws: a validation error for an unknown format or an image over the size limit.
    func inspect(_ bytes: [UInt8]) throws(KeyCatError) -> ProductImage

    /// Stores `bytes` and returns their reference; storing the same bytes again is a no-op.
    func store(_ bytes: [UInt8]) throws(KeyCatError) -> ProductImage

    /// The bytes of a stored image.
    func load(_ image: ProductImage) throws(KeyCatError) -> [UInt8]
}

/// The rules every image store applies.
public enum ImageRules {
    /// At most 2 MB (2 × 1024 × 1024 bytes) per image.
    public static let maximumBytes = 2 * 1024 * 1024
    /// At most 5 images per product.
    public static let maximumPerProduct = 5

    /// The format of `bytes`, recognised by their signature, not by any file name:
    /// JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, GIF `GIF87a`/`GIF89a`, WebP `RIFF….WEBP`.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }
}
