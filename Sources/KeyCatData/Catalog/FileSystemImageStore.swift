import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Product images as files in a folder beside the database (`keycat.db` → `keycat.db.images/`),
/// named by the SHA-256 of their bytes, so identical bytes are stored once. Files are written to
/// a temporary name and renamed into place, so a reader never sees half an image. The folder
/// (0700) and the files (0600) are owner-only whatever the umask, like the database. An image is
/// deleted only by a sweep (``sweep(storedBefore:keeping:dryRun:)``), once no listing names it
/// (``CatalogService/sweepImages(retention:dryRun:by:)``): a backup copies a database snapshot
/// first and the images it references afterwards, and finds them there unless a sweep took one
/// meanwhile (the backup then lists it as missing).
package struct FileSystemImageStore: ImageStore {
    package let directory: URL
    /// When a file counts as stored: its modification time is set from this clock.
    private let clock: any WallClock

    package init(directory: URL, clock: any WallClock = SystemClock()) {
        self.directory = directory
        self.clock = clock
    }

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
        // Stored before: stored again, now, so a sweep's grace spares it. A file a sweep has just
        // taken is not there to touch, and is written anew.
        if markStored(destination.path) { return image }
        do {
            try OwnerOnlyFile.createDirectory(directory.path, exclusive: false)
            let temporary = directory.appendingPathComponent(".\(image.sha256).\(UUID().uuidString).tmp")
            try OwnerOnlyFile.write(bytes, to: temporary.path)
            _ = markStored(temporary.path)
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

    /// Each image file last stored before `cutoff` and not kept goes: moved aside (one
    /// `rename`), looked at again, and deleted only if no store touched it meanwhile (one that
    /// did is moved back; one that comes later finds no file and writes it anew). Temporary
    /// files a write left behind before `cutoff` go too, and a file a sweep killed part way
    /// left aside is put back first (or dropped, when its image was stored anew).
    package func sweep(storedBefore cutoff: Date, keeping keep: Set<String>, dryRun: Bool) async throws(KeyCatError) -> ImageSweep {
        var swept = ImageSweep()
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch CocoaError.fileReadNoSuchFile {
            return swept  // no image was ever stored
        } catch {
            throw KeyCatError(.storage, "could not read the images folder \(directory.path): \(error)")
        }
        for name in names where name.hasPrefix(Self.asidePrefix) && !dryRun {
            let aside = directory.appendingPathComponent(name).path
            let original = directory.appendingPathComponent(String(name.dropFirst(Self.asidePrefix.count + 37))).path
            if link(aside, original) == 0 || errno == EEXIST { unlink(aside) }
        }
        for name in names where !name.hasPrefix(Self.asidePrefix) {
            let path = directory.appendingPathComponent(name).path
            guard let (stored, size) = Self.storedAt(path), stored < cutoff else { continue }
            if name.hasPrefix("."), name.hasSuffix(".tmp") {
                if !dryRun { unlink(path) }
                continue
            }
            guard ProductImage(fileName: name) != nil, !keep.contains(name) else { continue }
            if dryRun {
                swept.images += 1
                swept.bytes += size
                continue
            }
            let aside = directory.appendingPathComponent("\(Self.asidePrefix)\(UUID().uuidString)-\(name)").path
            guard rename(path, aside) == 0 else { continue }
            if let (again, _) = Self.storedAt(aside), again >= cutoff {
                _ = rename(aside, path)  // stored again meanwhile: it stays
                continue
            }
            unlink(aside)
            swept.images += 1
            swept.bytes += size
        }
        return swept
    }

    /// How a sweep names a file it moved aside: the prefix, a UUID and a dash, the file's name.
    static var asidePrefix: String { ".sweep-" }

    /// Sets the file's modification time to the clock's now; false when there is no file.
    private func markStored(_ path: String) -> Bool {
        let now = clock.now().timeIntervalSince1970
        let time = timeval(tv_sec: Int(now.rounded(.down)), tv_usec: Int((now - now.rounded(.down)) * 1_000_000))
        return [time, time].withUnsafeBufferPointer { utimes(path, $0.baseAddress) } == 0
    }

    /// When the file at `path` was last stored (its modification time) and its size; nil when
    /// it is not there.
    private static func storedAt(_ path: String) -> (Date, Int64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let seconds = TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1_000_000_000
        return (Date(timeIntervalSince1970: seconds), Int64(status.st_size))
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
