import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The run's temporary directory (`keycat-bench-` and a UUID, in `TMPDIR`), which holds a SQLite
/// file of up to a million products: removed when the run ends or is stopped (``StopCleanup``),
/// and, when the run could not (`kill -9`, a crash), by the next run on the machine.
///
/// A run holds an exclusive `flock` on its directory for as long as it lives, taken before the
/// directory has its final name (it is made under a staging name and renamed once locked), and
/// the kernel releases it when the process ends; so a `keycat-bench-…` directory whose lock can
/// be taken belongs to no live run.
final class BenchDirectory: Sendable {
    let url: URL
    /// The open directory whose `flock` marks the run as alive; closed with the run.
    private let lock: Int32

    /// Removes what runs that ended without cleaning up left in `parent`, then makes a directory
    /// there and locks it.
    init(in parent: URL = FileManager.default.temporaryDirectory) throws {
        for abandoned in Self.removeAbandoned(in: parent) {
            FileHandle.standardError.write(Data("keycat-bench: removed \(abandoned.path), left by a run that ended without cleaning up\n".utf8))
        }
        let id = UUID().uuidString
        let staging = parent.appendingPathComponent("keycat-bench-staging-\(id)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let lock = open(staging.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let cause = String(cString: strerror(errno))  // before close and remove can change errno
            if lock >= 0 { close(lock) }
            try? FileManager.default.removeItem(at: staging)
            throw RawDatabase.Failure(description: "cannot lock \(staging.path): \(cause)")
        }
        let url = parent.appendingPathComponent("keycat-bench-\(id)")
        guard rename(staging.path, url.path) == 0 else {
            let cause = String(cString: strerror(errno))
            close(lock)
            try? FileManager.default.removeItem(at: staging)
            throw RawDatabase.Failure(description: "cannot rename \(staging.path): \(cause)")
        }
        self.url = url
        self.lock = lock
    }

    deinit { close(lock) }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Removes every `keycat-bench-<UUID>` directory in `parent` whose lock can be taken (its run
    /// is gone), and returns them. A directory another process holds locked is a live run's.
    static func removeAbandoned(in parent: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        var removed: [URL] = []
        for name in names where name.hasPrefix("keycat-bench-") && UUID(uuidString: String(name.dropFirst("keycat-bench-".count))) != nil {
            let directory = parent.appendingPathComponent(name)
            let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            if (try? FileManager.default.removeItem(at: directory)) != nil { removed.append(directory) }
        }
        return removed
    }
}
