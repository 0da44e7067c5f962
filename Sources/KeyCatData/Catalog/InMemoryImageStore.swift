import Foundation
import KeyCatDomain
import Synchronization

/// Product images in memory: for tests of the use cases without a folder, and for an in-memory
/// database, which leaves nothing on disk. Applies the same ``ImageRules`` and SHA-256
/// addressing as ``FileSystemImageStore``.
package final class InMemoryImageStore: ImageStore {
    /// Each image's bytes and when it was last stored, under one lock, so a sweep and a store
    /// never interleave.
    private let images = Mutex<[String: (bytes: [UInt8], storedAt: Date)]>([:])
    private let clock: any WallClock

    package init(clock: any WallClock = SystemClock()) { self.clock = clock }

    /// How many distinct images are stored.
    package var count: Int { images.withLock { $0.count } }

    package func inspect(_ bytes: [UInt8]) throws(KeyCatError) -> ProductImage {
        try FileSystemImageStore.reference(for: bytes)
    }

    package func store(_ bytes: [UInt8]) async throws(KeyCatError) -> ProductImage {
        let image = try inspect(bytes)
        let now = clock.now()
        images.withLock { $0[image.fileName] = (bytes, now) }
        return image
    }

    package func sweep(storedBefore cutoff: Date, keeping keep: Set<String>, dryRun: Bool) async throws(KeyCatError) -> ImageSweep {
        images.withLock { images in
            let old = images.filter { $0.value.storedAt < cutoff && !keep.contains($0.key) }
            if !dryRun { for name in old.keys { images.removeValue(forKey: name) } }
            return ImageSweep(images: old.count, bytes: old.values.reduce(0) { $0 + Int64($1.bytes.count) })
        }
    }

    /// The bytes stored under `fileName` (`{sha256}.{format}`), for backups.
    package func bytes(named fileName: String) -> [UInt8]? {
        images.withLock { $0[fileName]?.bytes }
    }

    package func load(_ image: ProductImage) async throws(KeyCatError) -> [UInt8] {
        guard let bytes = images.withLock({ $0[image.fileName]?.bytes }) else {
            throw KeyCatError.notFound("image", image.fileName)
        }
        return bytes
    }
}
