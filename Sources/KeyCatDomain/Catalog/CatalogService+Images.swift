import Foundation

extension CatalogService {
    /// Adds an image (JPEG, PNG, WebP or GIF, at most 2 MB) at the end of a listing's images.
    ///
    /// - Parameter expectedVersion: the version the caller read, or nil to add to whatever is
    ///   current (adding cannot undo anyone's change).
    /// - Throws: `notOwner` unless the caller is its seller or an admin; `notFound` for a missing
    ///   or deleted listing; `validation` (field `images`) for bytes that are not an image, are
    ///   too large, or would make a sixth image; `versionConflict` for a stale version.
    public func addImage(_ bytes: [UInt8], to id: ProductID, expectedVersion: Int? = nil, by principal: Principal)
        throws(KeyCatError) -> Product
    {
        let current = try product(id)
        try authorizeChange(of: current, by: principal)
        let expected = expectedVersion ?? current.version
        guard expected == current.version else {
            throw KeyCatError(.versionConflict, "product \(id) changed since version \(expected); read it again",
                              context: ["current_version": String(current.version)])
        }
        guard current.images.count < ImageRules.maximumPerProduct else {
            throw .validation("images", "a product has at most \(ImageRules.maximumPerProduct) images")
        }
        _ = try images.inspect(bytes)
        let image = try images.store(bytes)
        let now = clock.now()
        return try products.setImages(current.images + [image], of: id, expectedVersion: expected, at: now,
                                      audit: auditEntry(principal, "product.image.add", id, image.fileName, now))
    }
}
