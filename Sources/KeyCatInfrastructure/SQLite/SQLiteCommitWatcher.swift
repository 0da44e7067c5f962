import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Fires a ``ChangeSignal`` when a SQLite file may have had a commit from *any* process: the way a
/// reader in one process learns, without polling, that another process (a second server, a
/// `keycat-admin` run) wrote to the same file.
///
/// In WAL mode every commit appends to the `-wal` file (and a checkpoint writes the database
/// file), so the watcher asks the kernel (`inotify(7)`) to report writes to either, on a thread
/// of its own that waits for them with `poll(2)` in short slices and stops soon after
/// ``close()``. Writes read together (one read every 5 ms at most) fire once, and again 10 ms, 100 ms and a second after the
/// last of them (a commit becomes visible only once its WAL index is updated, which the kernel
/// does not report). It says only that something *may* have
/// committed; the reader looks at its table. Where `inotify` is missing (not Linux) it fires
/// nothing, and readers fall back on their wait's timeout.
package final class SQLiteCommitWatcher: Sendable {
    private final class Flag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    private let closed = Flag()

    /// Starts watching the directory of `path` for writes to the file or its `-wal`.
    package init(path: String, signal: ChangeSignal) {
        #if canImport(Glibc)
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            Glibc.close(descriptor)
            return
        }
        let thread = Thread { [closed] in
            Self.watch(descriptor, names: names, signal: signal, closed: closed)
            Glibc.close(descriptor)
        }
        thread.name = "keycat-sqlite-watcher"
        thread.start()
        #endif
    }

    deinit { close() }

    /// Stops watching; the thread ends within a tenth of a second.
    package func close() {
        closed.isSet.store(true, ordering: .releasing)
    }

    #if canImport(Glibc)
    private static func watch(_ descriptor: Int32, names: Set<String>, signal: ChangeSignal, closed: Flag) {
        let headerSize = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // A commit writes its frames to the -wal before it updates the WAL index in the -shm
        // (mapped memory, which inotify does not see), so a reader woken by the writes may look
        // a moment too early. Each burst of writes is therefore fired again 10 ms, 100 ms and a
        // second after its last write: the later looks a reader needs. Deadlines, so writes to
        // other files in the directory never put them off.
        let trailing: [Duration] = [.milliseconds(10), .milliseconds(100), .seconds(1)]
        let clock = ContinuousClock()
        var deadlines: [ContinuousClock.Instant] = []
        while !closed.isSet.load(ordering: .acquiring) {
            let now = clock.now
            if let first = deadlines.first, first <= now {
                deadlines.removeAll { $0 <= now }
                signal.fire()
                continue
            }
            // At most a tenth of a second, so a close is seen that soon.
            let wait = deadlines.first.map { Swift.min(($0 - now), .milliseconds(100)) } ?? .milliseconds(100)
            let milliseconds = Swift.max(1, Int32(wait.components.seconds * 1_000 + wait.components.attoseconds / 1_000_000_000_000_000))
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, milliseconds) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            var relevant = false
            buffer.withUnsafeBytes { bytes in
                while offset + headerSize <= count {
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + headerSize
                    // Events were dropped (the queue overflowed): any of them may have been a commit.
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                    if nameLength > 0, nameStart + nameLength <= count {
                        let raw = bytes[nameStart..<(nameStart + nameLength)].prefix { $0 != 0 }
                        if names.contains(String(decoding: raw, as: UTF8.self)) { relevant = true }
                    }
                    offset = nameStart + nameLength
                }
            }
            guard relevant else { continue }
            signal.fire()
            let now2 = clock.now
            deadlines = trailing.map { now2 + $0 }
            // A busy writer's bursts are read together: a few wake-ups a second at most,
            // instead of a context switch on a shared core for every write.
            usleep(5_000)
        }
    }
    #endif
}
