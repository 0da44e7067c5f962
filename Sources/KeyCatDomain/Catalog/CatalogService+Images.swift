import Foundation

extension CatalogService {
    /// A stored image by its file name, `{sha256}.{format}` as ``ProductImage/fileName`` gives it
    /// (what a product's `images` list), for a server to send with the format's media type.
    ///
    /// - Throws: `notFound` for a well-formed name no stored image has, and for anything else
    ///   (a name that is not 64 hex digits and a known extension never reaches the store, so
    ///   `../` and the like cannot name a file).
    public func image(named fileName: String) async throws(KeyCatError) -> (image: ProductImage, bytes: [UInt8]) {
        guard let image = ProductImage(fileName: fileName) else { throw KeyCatError.notFound("image", fileName) }
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

extension CatalogService {
    /// Deletes the stored images no listing names any more (admin; reconciliation runs it once a
    /// day): images no listing ever named (a create or an image's add that failed after storing
    /// it), and those of listings withdrawn more than
    /// `retention` ago, whose image lists are emptied first so no row (nor any backup taken
    /// after) names what is deleted. An image stored less than ``ImageRules/sweepGrace`` ago
    /// stays whatever names it: the listing it was sent with may not be written yet. Images are
    /// what a seller's loop of uploads and withdrawals would otherwise pile up without end
    /// (each seller may store 500 a day, ``PerUserRateLimiter``).
    ///
    /// - Parameter dryRun: count what would go, change nothing.
    /// - Throws: `forbidden` for anyone but an admin; `validation` for a negative retention.
    public func sweepImages(retention: TimeInterval, dryRun: Bool = false, by principal: Principal) async throws(KeyCatError) -> ImageSweepReport {
        try principal.require(.admin, to: "sweep images")
        guard retention >= 0 else { throw KeyCatError.validation("retention", "an image retention is not negative") }
        let now = clock.now()
        let withdrawnBefore = now.addingTimeInterval(-retention)
        let audit = AuditEntry(actor: principal.auditActor, action: "images.sweep", target: "images",
                               detail: "images of listings withdrawn before \(withdrawnBefore) forgotten", at: now)
        let forgotten = try await products.forgetImages(ofListingsWithdrawnBefore: withdrawnBefore, dryRun: dryRun, at: now, audit: audit)
        // The names read after the lists were emptied: a listing written meanwhile stored (or
        // stored again) its images after the grace's cutoff, so the sweep leaves them whatever.
        let named = try await products.imageFileNames(withdrawnSince: withdrawnBefore)
        let swept = try await images.sweep(storedBefore: now.addingTimeInterval(-ImageRules.sweepGrace), keeping: named, dryRun: dryRun)
        return ImageSweepReport(listingsForgotten: forgotten, images: swept.images, bytes: swept.bytes, dryRun: dryRun)
    }
}

/// What ``CatalogService/sweepImages(retention:dryRun:by:)`` did, or with `dryRun` would do.
public struct ImageSweepReport: Sendable, Hashable {
    /// Withdrawn listings whose image lists were emptied.
    public var listingsForgotten: Int
    /// Images deleted from the store, and their bytes.
    public var images: Int
    public var bytes: Int64
    public var dryRun: Bool

    public init(listingsForgotten: Int, images: Int, bytes: Int64, dryRun: Bool) {
        self.listingsForgotten = listingsForgotten
        self.images = images
        self.bytes = bytes
        self.dryRun = dryRun
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
