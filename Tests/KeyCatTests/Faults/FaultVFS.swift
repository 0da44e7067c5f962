import CKeyCatFaultVFS

/// The test VFS of `Tests/CKeyCatFaultVFS` seen from Swift: it counts the reads, writes, syncs
/// and truncations of every file opened through it, and fails the Nth one of a kind, or "loses
/// power" there, discarding or tearing every write not yet synced.
///
/// Its state is global, so the suites that use it are nested in ``FaultInjectionTests``, which
/// runs them one at a time.
enum FaultVFS {
    /// One kind of injected failure.
    enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The Nth read fails once with `SQLITE_IOERR_READ`.
        case read
        /// The Nth write fails once with `SQLITE_IOERR_WRITE`.
        case write
        /// The Nth sync fails once with `SQLITE_IOERR_FSYNC`.
        case sync
        /// The Nth truncation fails once with `SQLITE_IOERR_TRUNCATE`.
        case truncate
        /// The disk fills at the Nth write: it and every later write fail with `SQLITE_FULL`
        /// until the test frees it (disarms).
        case diskFull

        var description: String { rawValue }

        fileprivate var kind: Int32 {
            switch self {
            case .read: Int32(KEYCAT_FAULT_READ)
            case .write, .diskFull: Int32(KEYCAT_FAULT_WRITE)
            case .sync: Int32(KEYCAT_FAULT_SYNC)
            case .truncate: Int32(KEYCAT_FAULT_TRUNCATE)
            }
        }

        fileprivate var code: Int32 {
            switch self {
            case .read: Int32(KEYCAT_FAULT_SQLITE_IOERR_READ)
            case .write: Int32(KEYCAT_FAULT_SQLITE_IOERR_WRITE)
            case .sync: Int32(KEYCAT_FAULT_SQLITE_IOERR_FSYNC)
            case .truncate: Int32(KEYCAT_FAULT_SQLITE_IOERR_TRUNCATE)
            case .diskFull: Int32(KEYCAT_FAULT_SQLITE_FULL)
            }
        }
    }

    /// The operation a power loss is timed by.
    enum Operation: Sendable {
        case write, sync

        fileprivate var kind: Int32 { self == .write ? Int32(KEYCAT_FAULT_WRITE) : Int32(KEYCAT_FAULT_SYNC) }
    }

    /// The VFS's registered name, for `KeyCat.Configuration.sqliteVFS`; registers it on first use.
    ///
    /// Syncs through it are counted and failed as armed, but the real fsync is skipped: these
    /// tests judge durability by the VFS's record of syncs, never by a real power loss, and an
    /// fsync costs milliseconds on a busy disk.
    static let name: String = {
        let result = keycat_fault_vfs_register()
        precondition(result == 0, "the fault VFS could not be registered (SQLite error \(result))")
        keycat_fault_vfs_skip_real_syncs(1)
        return KEYCAT_FAULT_VFS_NAME
    }()

    /// Counters to zero, nothing armed, power on, no unsynced writes remembered.
    static func reset() {
        _ = name
        keycat_fault_vfs_reset()
    }

    /// Makes the `nth` operation of `fault`'s kind from now fail (and, for a full disk, every
    /// later write too, until ``disarm()``).
    static func arm(_ fault: Fault, nth: Int) {
        let mode = fault == .diskFull ? KEYCAT_FAULT_PERSISTENT : KEYCAT_FAULT_ONCE
        keycat_fault_vfs_arm(fault.kind, Int64(nth), Int32(mode), fault.code, 0, 0)
    }

    /// The power goes out just before the `nth` `operation` from now. With `tear`, a random part
    /// (drawn from `seed`) of the unsynced writes reaches the disk anyway; without, none does.
    static func armPowerLoss(at operation: Operation, nth: Int, tear: Bool, seed: UInt32) {
        keycat_fault_vfs_track_unsynced(1)
        keycat_fault_vfs_arm(operation.kind, Int64(nth), Int32(KEYCAT_FAULT_POWER_LOSS), 0, tear ? 1 : 0, seed)
    }

    /// Nothing armed any more; a full disk has room again. Counters and power unchanged.
    static func disarm() { keycat_fault_vfs_disarm() }

    /// Stops remembering unsynced writes and forgets them.
    static func stopTracking() { keycat_fault_vfs_track_unsynced(0) }

    /// Operations made to fail since the last reset.
    static var failures: Int { Int(keycat_fault_vfs_failures()) }

    /// Whether the power went out since the last reset.
    static var powerLost: Bool { keycat_fault_vfs_power_lost() != 0 }

    /// What the last power loss did to the unsynced writes.
    static var discardedWrites: Int { Int(keycat_fault_vfs_discarded_writes()) }
    static var keptWrites: Int { Int(keycat_fault_vfs_kept_writes()) }

    /// Operations of `operation`'s kind since the last reset.
    static func count(_ operation: Operation) -> Int { Int(keycat_fault_vfs_count(operation.kind)) }
}
