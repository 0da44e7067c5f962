extension CatalogService {
    /// A stored image by its file name, `{sha256}.{format}` as ``ProductImage/fileName`` gives it
    /// (what a product's `images` list), for a server to send with the format's media type.
    ///
    /// - Throws: `notFound` for a well-formed name no stored image has, and for anything else
    ///   (a name that is not 64 hex digits and a known extension never reaches the store, so
    ///   `../` and the like cannot name a file).
    public func image(named fileName: String) throws(KeyCatError) -> (image: ProductImage, bytes: [UInt8]) {
        let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64,
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let format = ImageFormat(rawValue: String(parts[1]))
        else { throw KeyCatError.notFound("image", fileName) }
        let image = ProductImage(sha256: String(parts[0]), format: format)
        return (image, try images.load(image))
    }
}

extension ImageFormat {
    /// The media type to send the image with.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        }
    }
}
