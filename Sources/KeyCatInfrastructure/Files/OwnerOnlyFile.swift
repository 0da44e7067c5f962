import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files and folders only their owner may read or write (0600 and 0700), whatever the umask.
///
/// The database holds the token-signing and cursor keys, password hashes and refresh-token
/// digests, so KeyCat creates it, the PG simulator's file, the images folder and every backup
/// this way. The mode is given to `open(2)`/`mkdir(2)` (so the file is never, even for an
/// instant, readable by others under a permissive umask) and set again with `fchmod`/`chmod`
/// (a restrictive umask such as 0277 would otherwise leave the owner without write access).
/// SQLite gives a database's `-wal`, `-shm` and `-journal` the main file's permissions
/// (`robust_open` in `os_unix.c`), so they follow.
package enum OwnerOnlyFile {
    /// Read and write for the owner only.
    package static let fileMode: mode_t = 0o600
    /// Read, write and search for the owner only.
    package static let directoryMode: mode_t = 0o700

    /// Why a file or folder could not be created.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Something is already at the path.
        case exists(String)
        /// The system refused to create, read or write it (missing folder, no permission, disk full…).
        case system(String, reason: String)

        package var description: String {
            switch self {
            case let .exists(path): "\(path) already exists"
            case let .system(path, reason): "\(path): \(reason)"
            }
        }

        static func current(_ path: String) -> Failure {
            let code = errno
            return code == EEXIST ? .exists(path) : .system(path, reason: String(cString: strerror(code)))
        }
    }

    /// Creates an empty owner-only file at `path`. With `exclusive` anything already there is
    /// an ``Failure/exists(_:)`` error (`O_EXCL`: no check-then-create race); without it an
    /// existing file is left exactly as it is, mode included.
    package static func create(_ path: String, exclusive: Bool = true) throws(Failure) {
        do {
            close(try open(path))
        } catch .exists(_) where !exclusive {
            return
        }
    }

    /// Writes `bytes` to a new owner-only file at `path` (which must not exist) and syncs it.
    /// A failed write removes the partial file.
    package static func write(_ bytes: some Collection<UInt8>, to path: String) throws(Failure) {
        let descriptor = try open(path)
        let written = Array(bytes).withUnsafeBytes { writeAll($0, to: descriptor) } && fsync(descriptor) == 0
        let failure = written ? nil : Failure.current(path)
        close(descriptor)
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Copies the file at `source` to a new owner-only file at `destination`, in 64 KiB chunks,
    /// syncs it, and returns the SHA-256 of the bytes copied (so the copy's checksum costs no
    /// second read). A failed copy removes the partial file.
    package static func copy(from source: String, to destination: String) throws(Failure) -> [UInt8] {
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .current(source) }
        defer { close(input) }
        let output = try open(destination)
        let digest = SHA256.Digester()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var failure: Failure?
        while failure == nil {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { failure = .current(source) }
            if count <= 0 { break }
            digest.update(Array(buffer[0..<count]))
            if !buffer.withUnsafeBytes({ writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: output) }) {
                failure = .current(destination)
            }
        }
        if failure == nil, fsync(output) != 0 { failure = .current(destination) }
        close(output)
        if let failure {
            unlink(destination)
            throw failure
        }
        return digest.finish()
    }

    /// Writes all of `buffer` to `descriptor`, retrying short and interrupted writes.
    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            if count < 0 { return false }
            offset += count
        }
        return true
    }

    /// Creates an owner-only folder at `path`. With `exclusive`, an existing one is an error;
    /// without it, an existing folder is left as it is.
    package static func createDirectory(_ path: String, exclusive: Bool = true) throws(Failure) {
        if mkdir(path, directoryMode) != 0 {
            let failure = Failure.current(path)
            var isDirectory: ObjCBool = false
            if case .exists = failure, !exclusive,
               FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return
            }
            throw failure
        }
        guard chmod(path, directoryMode) == 0 else { throw .current(path) }
    }

    /// Opens a new file (`O_EXCL`) with mode 0600, then sets 0600 again past the umask.
    private static func open(_ path: String) throws(Failure) -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw .current(path) }
        guard fchmod(descriptor, fileMode) == 0 else {
            let failure = Failure.current(path)
            close(descriptor)
            throw failure
        }
        return descriptor
    }
}
