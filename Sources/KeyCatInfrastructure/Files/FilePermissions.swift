import Foundation

/// Finds files and folders that group or others may read or write, for `db check`'s
/// `permissions` section.
///
/// A warning, not a failure: the files still work, and an operator may have chosen group access
/// on purpose (a backup user in the database's group). The warning names the file, its mode and
/// the `chmod` that makes it owner-only.
package enum FilePermissions {
    /// One exposed file or folder.
    package struct Exposure: Sendable, Hashable, CustomStringConvertible {
        /// The path.
        package var path: String
        /// Its permission bits (e.g. 0o644).
        package var mode: mode_t
        /// Whether it is a folder.
        package var isDirectory: Bool

        /// What an operator reads: the file, its mode, who can get at it, and the fix.
        package var description: String {
            let fix = isDirectory ? "chmod 700 '\(path)'" : "chmod 600 '\(path)'"
            return "\(path) is open to group or others (mode \(String(mode, radix: 8))); run: \(fix)"
        }
    }

    /// The permission bits of `path`, or nil when nothing is there.
    package static func mode(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    /// Every path among `paths` (and, for a folder, the files directly in it) that exists and
    /// has any group or other permission bit set. Missing paths are skipped.
    package static func exposures(of paths: [String]) -> [Exposure] {
        var found: [Exposure] = []
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0 else { continue }
            let isDirectory = status.st_mode & S_IFMT == S_IFDIR
            let mode = status.st_mode & 0o7777
            if mode & 0o077 != 0 { found.append(Exposure(path: path, mode: mode, isDirectory: isDirectory)) }
            if isDirectory {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                found += exposures(of: names.map { path + "/" + $0 }.filter { !isFolder($0) })
            }
        }
        return found
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
