import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Product images as files in a folder beside the database (`keycat.db` → `keycat.db.images/`),
/// named by the SHA-256 of their bytes, so identical bytes are stored once. Files are written to
/// a temporary name and renamed into place, so a reader never sees half an image. The folder
/// (0700) and the files (0600) are owner-only whatever the umask, like the database. Images are
/// never deleted: a listing removed later keeps its files, so a backup may copy a database
/// snapshot first and the images it references afterwards.
package struct FileSystemImageStore: ImageStore {
    package let directory: URL

    package init(directory: URL) { self.directory = directory }

    /// The folder used for the database at `databasePath`.
    package static func directory(besideDatabaseAt databasePath: String) -> URL {
        URL(fileURLWithPath: databasePath + ".images", isDirectory: true)
    }

    package func inspect(_ bytes: [UInt8]) throws(KeyCatError) -> ProductImage { try Self.reference(for: bytes) }

    /// The reference of `bytes` once ``ImageRules`` accept them (shared with ``InMemoryImageStore``).
    static func reference(for bytes: [UInt8]) throws(KeyCatError) -> ProductImage {
        guard bytes.count <= ImageRules.maximumBytes else {
            throw .validation("images", "an image may be at most 2 MB, got \(bytes.count) bytes")
        }
        guard let format = ImageRules.format(of: bytes) else {
            throw .validation("images", "images must be well-formed JPEG, PNG, WebP or GIF files of at most \(ImageHeader.maximumSide) pixels a side")
        }
        return ProductImage(sha256: SHA256.hex(SHA256.hash(bytes)), format: format)
    }

    package func store(_ bytes: [UInt8]) async throws(KeyCatError) -> ProductImage {
        let image = try inspect(bytes)
        let destination = directory.appendingPathComponent(image.fileName)
        let manager = FileManager.default
        if manager.fileExists(atPath: destination.path) { return image }
        do {
            try OwnerOnlyFile.createDirectory(directory.path, exclusive: false)
            let temporary = directory.appendingPathComponent(".\(image.sha256).\(UUID().uuidString).tmp")
            try OwnerOnlyFile.write(bytes, to: temporary.path)
            if rename(temporary.path, destination.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? manager.removeItem(at: temporary)
                throw OwnerOnlyFile.Failure.system(destination.path, reason: reason)
            }
        } catch {
            throw KeyCatError(.storage, "could not store the image: \(error)")
        }
        return image
    }

    package func load(_ image: ProductImage) async throws(KeyCatError) -> [UInt8] {
        guard image.sha256.count == 64, image.sha256.allSatisfy(\.isHexDigit) else {
            throw .validation("image", "not an image reference")
        }
        do {
            return [UInt8](try Data(contentsOf: directory.appendingPathComponent(image.fileName)))
        } catch {
            throw KeyCatError.notFound("image", image.fileName)
        }
    }
}
