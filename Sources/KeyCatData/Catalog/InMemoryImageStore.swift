import Foundation
import KeyCatDomain
import Synchronization

/// Product images in memory: for tests of the use cases without a folder, and for an in-memory
/// database, which leaves nothing on disk. Applies the same ``ImageRules`` and SHA-256
/// addressing as ``FileSystemImageStore``.
package final class InMemoryImageStore: ImageStore {
    private let images = Mutex<[String: [UInt8]]>([:])
    private let storedAt = Mutex<[String: Date]>([:])
    private let clock: any WallClock

    package init(clock: any WallClock = SystemClock()) { self.clock = clock }

    /// How many distinct images are stored.
    package var count: Int { images.withLock { $0.count } }

    package func inspect(_ bytes: [UInt8]) throws(KeyCatError) -> ProductImage {
        try FileSystemImageStore.reference(for: bytes)
    }

    package func store(_ bytes: [UInt8]) async throws(KeyCatError) -> ProductImage {
        let image = try inspect(bytes)
        images.withLock { $0[image.fileName] = bytes }
        storedAt.withLock { $0[image.fileName] = clock.now() }
        return image
    }

    package func sweep(storedBefore cutoff: Date, keeping keep: Set<String>, dryRun: Bool) async throws(KeyCatError) -> ImageSweep {
        let old = storedAt.withLock { $0.filter { $0.value < cutoff && !keep.contains($0.key) }.map(\.key) }
        var swept = ImageSweep()
        for name in old {
            let bytes = dryRun ? images.withLock { $0[name] } : images.withLock { $0.removeValue(forKey: name) }
            if !dryRun { storedAt.withLock { _ = $0.removeValue(forKey: name) } }
            swept.images += 1
            swept.bytes += Int64(bytes?.count ?? 0)
        }
        return swept
    }

    /// The bytes stored under `fileName` (`{sha256}.{format}`), for backups.
    package func bytes(named fileName: String) -> [UInt8]? {
        images.withLock { $0[fileName] }
    }

    package func load(_ image: ProductImage) async throws(KeyCatError) -> [UInt8] {
        guard let bytes = images.withLock({ $0[image.fileName] }) else {
            throw KeyCatError.notFound("image", image.fileName)
        }
        return bytes
    }
}
