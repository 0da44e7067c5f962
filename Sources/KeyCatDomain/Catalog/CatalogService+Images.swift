import Foundation

extension CatalogService {
    /// A stored image by its file name, `{sha256}.{format}` as ``ProductImage/fileName`` gives it
    /// (what a product's `images` list), for a server to send with the format's media type.
    ///
    /// - Throws: `notFound` for a well-formed name no stored image has, and for anything else
    ///   (a name that is not 64 hex digits and a known extension never reaches the store, so
    ///   `../` and the like cannot name a file).
    public func image(named fileName: String) async throws(KeyCatError) -> (image: ProductImage, bytes: [UInt8]) {
        let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64,
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let format = ImageFormat(rawValue: String(parts[1]))
        else { throw KeyCatError.notFound("image", fileName) }
        let image = ProductImage(sha256: String(parts[0]), format: format)
        return (image, try await images.load(image))
    }

    /// Adds an image (JPEG, PNG, WebP or GIF, at most 2 MB) at the end of a listing's images.
    ///
    /// - Parameter expectedVersion: the version the caller read, or nil to add to whatever is
    ///   current (adding cannot undo anyone's change).
    /// - Throws: `notOwner` unless the caller is its seller or an admin; `notFound` for a missing
    ///   or deleted listing; `validation` (field `images`) for bytes that are not an image, are
    ///   too large, or would make a sixth image; `versionConflict` for a stale version.
    public func addImage(_ bytes: [UInt8], to id: ProductID, expectedVersion: Int? = nil, by principal: Principal)
        async throws(KeyCatError) -> Product
    {
        // The bytes' own rules first: what is not an image is refused whatever it was sent to.
        _ = try images.inspect(bytes)
        let current = try await product(id, includingUnlisted: true)
        try authorizeChange(of: current, by: principal)
        let expected = expectedVersion ?? current.version
        guard expected == current.version else {
            throw KeyCatError(.versionConflict, "product \(id) changed since version \(expected); read it again",
                              context: ["current_version": String(current.version)])
        }
        guard current.images.count < ImageRules.maximumPerProduct else {
            throw .validation("images", "a product has at most \(ImageRules.maximumPerProduct) images")
        }
        try await takeImageUploads(1, by: principal)
        let image = try await images.store(bytes)
        let now = clock.now()
        return try await products.setImages(current.images + [image], of: id, expectedVersion: expected, at: now,
                                            audit: auditEntry(principal, "product.image.add", id, image.fileName, now))
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
