import Foundation

/// Whether a connection has a SQLite database open, as SQLite itself tells.
///
/// In WAL mode every connection that has read the database holds a read lock on one byte of
/// its `-shm` file for as long as it is open (SQLite's "dead man switch", `UNIX_SHM_DMS`: byte
/// 128, after the 8 WAL locks at 120); the first connection to open the shared memory sees no
/// lock there, and so knows to rebuild it. A restore asks the same question before it renames a
/// file into place: a running server would go on writing to the old one.
///
/// The locks are read from Linux's `/proc/locks`, not probed with `fcntl`: probing means opening
/// the `-shm` file, and closing a descriptor drops every POSIX lock its process holds on the
/// file, so a probe from a process with the database open would silently take its connections'
/// locks away.
package enum SQLiteFileUse {
    /// SQLite's `UNIX_SHM_DMS`: `(22 + SQLITE_SHM_NLOCK) * 4 + SQLITE_SHM_NLOCK`, with 8 locks.
    static let deadManSwitchByte: UInt64 = 128

    /// Whether any process holds `databasePath` open in WAL mode. False when it has no `-shm`
    /// file, or where `/proc/locks` cannot be read (not Linux).
    package static func isOpen(_ databasePath: String) -> Bool {
        var file = stat()
        guard stat(databasePath + "-shm", &file) == 0, let table = locksTable() else { return false }
        return holdsDeadManSwitch(table, device: UInt64(file.st_dev), inode: UInt64(file.st_ino))
    }

    /// `/proc/locks` read to its end. Its size says 0, as every file of procfs does, so it is read
    /// until `read` has nothing more, not by its size (which gives a page of it, or nothing).
    private static func locksTable() -> String? {
        let descriptor = open("/proc/locks", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `/proc/locks` text holds a granted lock on the dead man switch's byte of the file
    /// `device`/`inode`. Each line is `N: POSIX|OFDLCK|FLOCK ADVISORY READ|WRITE pid
    /// major:minor:inode start end|EOF`; a waiter's line has `->` after its number.
    static func holdsDeadManSwitch(_ table: String, device: UInt64, inode: UInt64) -> Bool {
        // The kernel prints the device as its major and minor numbers in hex; glibc packs them
        // into `st_dev` as gnu_dev_major/gnu_dev_minor unpack them.
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
        let minor = (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[1] != "->", fields[1] == "POSIX" || fields[1] == "OFDLCK" else { continue }
            let identity = fields[5].split(separator: ":")
            guard identity.count == 3, UInt64(identity[0], radix: 16) == major, UInt64(identity[1], radix: 16) == minor,
                  UInt64(identity[2]) == inode, let start = UInt64(fields[6]) else { continue }
            let end = fields[7] == "EOF" ? UInt64.max : UInt64(fields[7]) ?? 0
            if start <= deadManSwitchByte && deadManSwitchByte <= end { return true }
        }
        return false
    }
}
