import Foundation

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

    /// Deletes the images last stored before `cutoff` whose file names `keep` does not hold (with
    /// `dryRun`, only counts them). Storing bytes again counts as storing them, so an image a
    /// listing is being written with is never taken from under it: a store at the same moment
    /// as the sweep either keeps the image or stores it anew.
    func sweep(storedBefore cutoff: Date, keeping keep: Set<String>, dryRun: Bool) async throws(KeyCatError) -> ImageSweep
}

/// What a sweep of the image store took, or would take.
public struct ImageSweep: Sendable, Hashable {
    /// Images deleted (or that would be).
    public var images: Int
    /// Their bytes.
    public var bytes: Int64

    public init(images: Int = 0, bytes: Int64 = 0) {
        self.images = images
        self.bytes = bytes
    }
}

/// The rules every image store applies.
public enum ImageRules {
    /// At most 2 MB (2 × 1024 × 1024 bytes) per image.
    public static let maximumBytes = 2 * 1024 * 1024
    /// At most 5 images per product.
    public static let maximumPerProduct = 5
    /// How long a stored image no listing names is kept before a sweep may delete it: an upload
    /// the listing that names it has not been written yet, an edit a seller is still making.
    public static let sweepGrace: TimeInterval = 24 * 60 * 60

    /// The format of `bytes`, recognised by their content, not by any file name: a well-formed
    /// JPEG, PNG, GIF or WebP header with sides of 1 to ``ImageHeader/maximumSide`` pixels (see
    /// ``ImageHeader``); nil for anything else.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        ImageHeader(bytes)?.format
    }
}
