#ifndef KEYCAT_FAULT_VFS_H
#define KEYCAT_FAULT_VFS_H

/// A SQLite VFS for tests (https://sqlite.org/vfs.html) that wraps the platform's default one
/// and can make one chosen file operation fail, or the power go out.
///
/// Every read, write, sync and truncate of a file opened through it is counted, per kind, from
/// the last `keycat_fault_vfs_reset`. Once armed, the Nth operation of one kind (counting from
/// the arming) fails:
///
/// - `KEYCAT_FAULT_ONCE`: that operation alone fails with the given code (a transient I/O error);
/// - `KEYCAT_FAULT_PERSISTENT`: it and every later one of its kind fail (a disk that stays full);
/// - `KEYCAT_FAULT_POWER_LOSS`: the power goes out just before it. Every write not yet made
///   durable by a sync of its file is discarded (or, with `tear`, a random part of them is
///   kept: whole writes, or their first 512-byte sectors), in the journal, the WAL and the
///   database file alike, and from then on every operation fails, as on a dead machine.
///
/// Unsynced writes are only remembered while power-loss tracking is on (it costs a read of the
/// old bytes before each write). The state is global: tests that use it run one at a time.
/// Files opened through this VFS never use memory-mapped I/O, so every page is an `xRead`.

// The header names no SQLite type, so that Swift sees one copy of <sqlite3.h> (KeyCat's own
// CSQLite module's); the result codes a test needs are repeated here, checked against SQLite's
// in FaultVFS.c.

#define KEYCAT_FAULT_VFS_NAME "keycat-fault"

enum {
    KEYCAT_FAULT_SQLITE_FULL = 13,
    KEYCAT_FAULT_SQLITE_IOERR_READ = 10 | (1 << 8),
    KEYCAT_FAULT_SQLITE_IOERR_WRITE = 10 | (3 << 8),
    KEYCAT_FAULT_SQLITE_IOERR_FSYNC = 10 | (4 << 8),
    KEYCAT_FAULT_SQLITE_IOERR_TRUNCATE = 10 | (6 << 8),
};

enum {
    KEYCAT_FAULT_READ = 0,
    KEYCAT_FAULT_WRITE = 1,
    KEYCAT_FAULT_SYNC = 2,
    KEYCAT_FAULT_TRUNCATE = 3,
    KEYCAT_FAULT_KIND_COUNT = 4,
};

enum {
    KEYCAT_FAULT_ONCE = 0,
    KEYCAT_FAULT_PERSISTENT = 1,
    KEYCAT_FAULT_POWER_LOSS = 2,
};

/// Registers the VFS under `KEYCAT_FAULT_VFS_NAME` (not as the default). Calling it again is
/// harmless. Returns a SQLite result code.
int keycat_fault_vfs_register(void);

/// Zeroes the counters, disarms, turns the power back on and forgets every unsynced write.
void keycat_fault_vfs_reset(void);

/// Arms a fault on the `nth` (from 1) operation of `kind` counted from now. `code` is the
/// result the failing operation returns (e.g. `SQLITE_IOERR_WRITE`, `SQLITE_FULL`); ignored for
/// a power loss. `seed` drives which unsynced writes a torn power loss keeps.
void keycat_fault_vfs_arm(int kind, long long nth, int mode, int code, int tear, unsigned int seed);

/// Disarms without touching the counters or the power.
void keycat_fault_vfs_disarm(void);

/// Operations of `kind` since the last reset.
long long keycat_fault_vfs_count(int kind);

/// Operations that were made to fail since the last reset.
long long keycat_fault_vfs_failures(void);

/// Turns remembering unsynced writes on or off (off forgets what it held).
void keycat_fault_vfs_track_unsynced(int on);

/// With `on`, a sync that is not made to fail is counted and ends the file's unsynced writes as
/// usual, but the real fsync is skipped: the tests judge durability by the VFS's own record of
/// syncs (a power loss is simulated, never real), and an fsync costs milliseconds on a busy
/// disk. SQLite cannot tell the difference. Off by default; a reset leaves it as it is.
void keycat_fault_vfs_skip_real_syncs(int on);

/// Whether the power went out since the last reset.
int keycat_fault_vfs_power_lost(void);

/// At the last power loss: unsynced writes (and truncations) discarded, and those a torn loss kept.
long long keycat_fault_vfs_discarded_writes(void);
long long keycat_fault_vfs_kept_writes(void);

#endif
