// The fault-injecting VFS of KeyCatFaultVFS.h: a shim over the default VFS in the manner of
// SQLite's own test VFSes (https://sqlite.org/vfs.html), counting and failing file operations,
// and remembering unsynced writes so that a "power loss" can discard or tear them.
#define _XOPEN_SOURCE 700  // pwrite, ftruncate and strdup under any C standard mode

#include "KeyCatFaultVFS.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

_Static_assert(KEYCAT_FAULT_SQLITE_FULL == SQLITE_FULL, "SQLITE_FULL");
_Static_assert(KEYCAT_FAULT_SQLITE_IOERR_READ == SQLITE_IOERR_READ, "SQLITE_IOERR_READ");
_Static_assert(KEYCAT_FAULT_SQLITE_IOERR_WRITE == SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE");
_Static_assert(KEYCAT_FAULT_SQLITE_IOERR_FSYNC == SQLITE_IOERR_FSYNC, "SQLITE_IOERR_FSYNC");
_Static_assert(KEYCAT_FAULT_SQLITE_IOERR_TRUNCATE == SQLITE_IOERR_TRUNCATE, "SQLITE_IOERR_TRUNCATE");

/// One write or truncation not yet made durable by a sync: enough to undo it (the bytes and
/// size before) and to redo it (the bytes and size after).
typedef struct PendingChange {
    sqlite3_int64 offset;
    unsigned char *oldBytes;
    int oldLength;
    unsigned char *newBytes;  // NULL for a truncation
    int newLength;
    sqlite3_int64 sizeBefore;
    sqlite3_int64 sizeAfter;
    struct PendingChange *next;
} PendingChange;

/// The unsynced changes of one file, by path: they outlive the handle that made them (a file
/// closed without a sync still loses them when the power goes).
typedef struct TrackedFile {
    char *path;
    PendingChange *first;
    PendingChange *last;
    struct TrackedFile *next;
} TrackedFile;

typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;  // the wrapped VFS's file, allocated right after this struct
    char *path;          // NULL for a file without a name
} FaultFile;

static struct {
    pthread_mutex_t lock;
    sqlite3_vfs *real;
    long long counts[KEYCAT_FAULT_KIND_COUNT];
    int armedKind;  // -1: nothing armed
    long long armedBase;
    long long nth;
    int mode;
    int code;
    int tear;
    unsigned int seed;
    long long failures;
    int powerLost;
    int tracking;
    int skipRealSyncs;
    TrackedFile *files;
    long long discarded;
    long long kept;
} state = {PTHREAD_MUTEX_INITIALIZER, NULL, {0}, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0};

static const int deadCodes[KEYCAT_FAULT_KIND_COUNT] = {
    SQLITE_IOERR_READ, SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC, SQLITE_IOERR_TRUNCATE};

// MARK: - Unsynced changes

static void freeChanges(TrackedFile *file) {
    PendingChange *change = file->first;
    while (change) {
        PendingChange *next = change->next;
        free(change->oldBytes);
        free(change->newBytes);
        free(change);
        change = next;
    }
    file->first = file->last = NULL;
}

static TrackedFile *trackedFile(const char *path, int create) {
    for (TrackedFile *file = state.files; file; file = file->next) {
        if (strcmp(file->path, path) == 0) return file;
    }
    if (!create) return NULL;
    TrackedFile *file = calloc(1, sizeof *file);
    file->path = strdup(path);
    file->next = state.files;
    state.files = file;
    return file;
}

static void forgetAllChanges(void) {
    TrackedFile *file = state.files;
    while (file) {
        TrackedFile *next = file->next;
        freeChanges(file);
        free(file->path);
        free(file);
        file = next;
    }
    state.files = NULL;
}

/// Remembers a change about to be made to `file`: reads what `length` bytes at `offset` hold
/// now (up to the current end of the file). The caller appends it once the change succeeded.
static PendingChange *captureChange(FaultFile *file, sqlite3_int64 offset, int length) {
    PendingChange *change = calloc(1, sizeof *change);
    change->offset = offset;
    if (file->real->pMethods->xFileSize(file->real, &change->sizeBefore) != SQLITE_OK) change->sizeBefore = 0;
    sqlite3_int64 available = change->sizeBefore - offset;
    change->oldLength = available <= 0 ? 0 : (available < length ? (int)available : length);
    if (change->oldLength > 0) {
        change->oldBytes = malloc((size_t)change->oldLength);
        if (file->real->pMethods->xRead(file->real, change->oldBytes, change->oldLength, offset) != SQLITE_OK) {
            memset(change->oldBytes, 0, (size_t)change->oldLength);
        }
    }
    return change;
}

static void appendChange(const char *path, PendingChange *change) {
    TrackedFile *file = trackedFile(path, 1);
    if (file->last) file->last->next = change; else file->first = change;
    file->last = change;
}

static unsigned int nextRandom(void) {
    // xorshift32: reproducible from the seed, and good enough to pick writes.
    unsigned int x = state.seed ? state.seed : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    state.seed = x;
    return x;
}

/// The power goes out: every file's unsynced changes are undone, newest first, straight on the
/// disk; a torn loss then lets a random part of them through, oldest first.
static void losePower(void) {
    state.powerLost = 1;
    for (TrackedFile *file = state.files; file; file = file->next) {
        int count = 0;
        for (PendingChange *change = file->first; change; change = change->next) count++;
        if (count == 0) continue;
        int fd = open(file->path, O_RDWR);
        if (fd < 0) {  // deleted since: nothing of it is left to lose
            freeChanges(file);
            continue;
        }
        PendingChange **changes = malloc(sizeof(PendingChange *) * (size_t)count);
        int index = 0;
        for (PendingChange *change = file->first; change; change = change->next) changes[index++] = change;
        for (index = count - 1; index >= 0; index--) {
            PendingChange *change = changes[index];
            if (change->oldLength > 0 && pwrite(fd, change->oldBytes, (size_t)change->oldLength, change->offset) < 0) break;
            if (ftruncate(fd, change->sizeBefore) != 0) break;
        }
        for (index = 0; index < count; index++) {
            PendingChange *change = changes[index];
            unsigned int choice = state.tear ? nextRandom() % 3 : 0;
            if (choice == 0) {
                state.discarded++;
                continue;
            }
            state.kept++;
            if (!change->newBytes) {
                if (ftruncate(fd, change->sizeAfter) != 0) break;
                continue;
            }
            int length = change->newLength;
            if (choice == 2 && length > 512) length = 512 * (int)(1 + nextRandom() % (unsigned int)(length / 512));
            if (pwrite(fd, change->newBytes, (size_t)length, change->offset) < 0) break;
        }
        free(changes);
        close(fd);
        freeChanges(file);
    }
}

// MARK: - Counting and failing

/// Counts an operation of `kind` and says whether it must fail, and with which code (0: go on).
/// Called with the lock held.
static int decide(int kind) {
    if (state.powerLost) return deadCodes[kind];
    state.counts[kind]++;
    if (state.armedKind != kind) return 0;
    long long n = state.counts[kind] - state.armedBase;
    switch (state.mode) {
    case KEYCAT_FAULT_ONCE:
        if (n != state.nth) return 0;
        break;
    case KEYCAT_FAULT_PERSISTENT:
        if (n < state.nth) return 0;
        break;
    default:
        if (n != state.nth) return 0;
        losePower();
        state.failures++;
        return deadCodes[kind];
    }
    state.failures++;
    return state.code;
}

// MARK: - File methods

static int faultClose(sqlite3_file *base) {
    FaultFile *file = (FaultFile *)base;
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free(file->path);
    file->path = NULL;
    return rc;
}

static int faultRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    FaultFile *file = (FaultFile *)base;
    pthread_mutex_lock(&state.lock);
    int failure = decide(KEYCAT_FAULT_READ);
    pthread_mutex_unlock(&state.lock);
    if (failure) return failure;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int faultWrite(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    FaultFile *file = (FaultFile *)base;
    pthread_mutex_lock(&state.lock);
    int rc = decide(KEYCAT_FAULT_WRITE);
    if (rc == 0) {
        PendingChange *change = state.tracking && file->path ? captureChange(file, offset, amount) : NULL;
        rc = file->real->pMethods->xWrite(file->real, buffer, amount, offset);
        if (change && rc == SQLITE_OK) {
            change->newBytes = malloc((size_t)amount);
            memcpy(change->newBytes, buffer, (size_t)amount);
            change->newLength = amount;
            sqlite3_int64 end = offset + amount;
            change->sizeAfter = end > change->sizeBefore ? end : change->sizeBefore;
            appendChange(file->path, change);
        } else if (change) {
            free(change->oldBytes);
            free(change);
        }
    }
    pthread_mutex_unlock(&state.lock);
    return rc;
}

static int faultTruncate(sqlite3_file *base, sqlite3_int64 size) {
    FaultFile *file = (FaultFile *)base;
    pthread_mutex_lock(&state.lock);
    int rc = decide(KEYCAT_FAULT_TRUNCATE);
    if (rc == 0) {
        PendingChange *change = NULL;
        if (state.tracking && file->path) {
            sqlite3_int64 current = 0;
            file->real->pMethods->xFileSize(file->real, &current);
            change = captureChange(file, size, current > size ? (int)(current - size) : 0);
        }
        rc = file->real->pMethods->xTruncate(file->real, size);
        if (change && rc == SQLITE_OK) {
            change->sizeAfter = size;
            appendChange(file->path, change);
        } else if (change) {
            free(change->oldBytes);
            free(change);
        }
    }
    pthread_mutex_unlock(&state.lock);
    return rc;
}

static int faultSync(sqlite3_file *base, int flags) {
    FaultFile *file = (FaultFile *)base;
    pthread_mutex_lock(&state.lock);
    int rc = decide(KEYCAT_FAULT_SYNC);
    if (rc == 0) {
        rc = state.skipRealSyncs ? SQLITE_OK : file->real->pMethods->xSync(file->real, flags);
        if (rc == SQLITE_OK && file->path) {
            TrackedFile *tracked = trackedFile(file->path, 0);
            if (tracked) freeChanges(tracked);
        }
    }
    pthread_mutex_unlock(&state.lock);
    return rc;
}

#define REAL(base) (((FaultFile *)(base))->real)

static int faultFileSize(sqlite3_file *base, sqlite3_int64 *size) { return REAL(base)->pMethods->xFileSize(REAL(base), size); }
static int faultLock(sqlite3_file *base, int level) { return REAL(base)->pMethods->xLock(REAL(base), level); }
static int faultUnlock(sqlite3_file *base, int level) { return REAL(base)->pMethods->xUnlock(REAL(base), level); }
static int faultCheckReservedLock(sqlite3_file *base, int *out) {
    return REAL(base)->pMethods->xCheckReservedLock(REAL(base), out);
}
static int faultFileControl(sqlite3_file *base, int op, void *argument) {
    return REAL(base)->pMethods->xFileControl(REAL(base), op, argument);
}
static int faultSectorSize(sqlite3_file *base) { return REAL(base)->pMethods->xSectorSize(REAL(base)); }
static int faultDeviceCharacteristics(sqlite3_file *base) {
    return REAL(base)->pMethods->xDeviceCharacteristics(REAL(base));
}
static int faultShmMap(sqlite3_file *base, int page, int size, int extend, void volatile **out) {
    return REAL(base)->pMethods->xShmMap(REAL(base), page, size, extend, out);
}
static int faultShmLock(sqlite3_file *base, int offset, int n, int flags) {
    return REAL(base)->pMethods->xShmLock(REAL(base), offset, n, flags);
}
static void faultShmBarrier(sqlite3_file *base) { REAL(base)->pMethods->xShmBarrier(REAL(base)); }
static int faultShmUnmap(sqlite3_file *base, int deleteFlag) {
    return REAL(base)->pMethods->xShmUnmap(REAL(base), deleteFlag);
}
// No memory-mapped pages: SQLite then reads every page with xRead, where faults are injected.
static int faultFetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **out) {
    (void)base; (void)offset; (void)amount;
    *out = NULL;
    return SQLITE_OK;
}
static int faultUnfetch(sqlite3_file *base, sqlite3_int64 offset, void *page) {
    (void)base; (void)offset; (void)page;
    return SQLITE_OK;
}

static const sqlite3_io_methods faultMethods = {
    3, faultClose, faultRead, faultWrite, faultTruncate, faultSync, faultFileSize, faultLock, faultUnlock,
    faultCheckReservedLock, faultFileControl, faultSectorSize, faultDeviceCharacteristics, faultShmMap,
    faultShmLock, faultShmBarrier, faultShmUnmap, faultFetch, faultUnfetch,
};

// MARK: - VFS methods

static int faultOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    (void)vfs;
    FaultFile *file = (FaultFile *)base;
    file->real = (sqlite3_file *)&file[1];
    file->path = NULL;
    int rc = state.real->xOpen(state.real, name, file->real, flags, outFlags);
    // SQLite calls xClose only when pMethods is set, so set it exactly when the real one is.
    base->pMethods = file->real->pMethods ? &faultMethods : NULL;
    if (rc == SQLITE_OK && name) file->path = strdup(name);
    return rc;
}

static int faultDelete(sqlite3_vfs *vfs, const char *path, int syncDirectory) {
    (void)vfs;
    pthread_mutex_lock(&state.lock);
    int dead = state.powerLost;
    pthread_mutex_unlock(&state.lock);
    if (dead) return SQLITE_IOERR_DELETE;
    int rc = state.real->xDelete(state.real, path, syncDirectory);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&state.lock);
        TrackedFile *tracked = trackedFile(path, 0);
        if (tracked) freeChanges(tracked);
        pthread_mutex_unlock(&state.lock);
    }
    return rc;
}

static int faultAccess(sqlite3_vfs *vfs, const char *path, int flags, int *out) {
    (void)vfs;
    return state.real->xAccess(state.real, path, flags, out);
}
static int faultFullPathname(sqlite3_vfs *vfs, const char *path, int size, char *out) {
    (void)vfs;
    return state.real->xFullPathname(state.real, path, size, out);
}
static void *faultDlOpen(sqlite3_vfs *vfs, const char *path) { (void)vfs; return state.real->xDlOpen(state.real, path); }
static void faultDlError(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; state.real->xDlError(state.real, size, out); }
static void (*faultDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return state.real->xDlSym(state.real, handle, symbol);
}
static void faultDlClose(sqlite3_vfs *vfs, void *handle) { (void)vfs; state.real->xDlClose(state.real, handle); }
static int faultRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return state.real->xRandomness(state.real, size, out);
}
static int faultSleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return state.real->xSleep(state.real, microseconds); }
static int faultCurrentTime(sqlite3_vfs *vfs, double *out) { (void)vfs; return state.real->xCurrentTime(state.real, out); }
static int faultGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return state.real->xGetLastError(state.real, size, out);
}
static int faultCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return state.real->xCurrentTimeInt64(state.real, out);
}

static sqlite3_vfs faultVFS;
static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int registrationResult = SQLITE_ERROR;

static void registerOnce(void) {
    state.real = sqlite3_vfs_find(NULL);
    if (!state.real) return;
    sqlite3_vfs vfs = {
        2, (int)sizeof(FaultFile) + state.real->szOsFile, state.real->mxPathname, NULL, KEYCAT_FAULT_VFS_NAME, NULL,
        faultOpen, faultDelete, faultAccess, faultFullPathname, faultDlOpen, faultDlError, faultDlSym,
        faultDlClose, faultRandomness, faultSleep, faultCurrentTime, faultGetLastError, faultCurrentTimeInt64,
        NULL, NULL, NULL,
    };
    faultVFS = vfs;
    registrationResult = sqlite3_vfs_register(&faultVFS, 0);
}

// MARK: - Control

int keycat_fault_vfs_register(void) {
    pthread_once(&registration, registerOnce);
    return registrationResult;
}

void keycat_fault_vfs_reset(void) {
    pthread_mutex_lock(&state.lock);
    memset(state.counts, 0, sizeof state.counts);
    state.armedKind = -1;
    state.failures = 0;
    state.powerLost = 0;
    state.discarded = state.kept = 0;
    forgetAllChanges();
    pthread_mutex_unlock(&state.lock);
}

void keycat_fault_vfs_arm(int kind, long long nth, int mode, int code, int tear, unsigned int seed) {
    pthread_mutex_lock(&state.lock);
    state.armedKind = (kind >= 0 && kind < KEYCAT_FAULT_KIND_COUNT) ? kind : -1;
    state.armedBase = state.armedKind >= 0 ? state.counts[kind] : 0;
    state.nth = nth;
    state.mode = mode;
    state.code = code;
    state.tear = tear;
    state.seed = seed;
    pthread_mutex_unlock(&state.lock);
}

void keycat_fault_vfs_disarm(void) {
    pthread_mutex_lock(&state.lock);
    state.armedKind = -1;
    pthread_mutex_unlock(&state.lock);
}

long long keycat_fault_vfs_count(int kind) {
    if (kind < 0 || kind >= KEYCAT_FAULT_KIND_COUNT) return 0;
    pthread_mutex_lock(&state.lock);
    long long count = state.counts[kind];
    pthread_mutex_unlock(&state.lock);
    return count;
}

long long keycat_fault_vfs_failures(void) {
    pthread_mutex_lock(&state.lock);
    long long failures = state.failures;
    pthread_mutex_unlock(&state.lock);
    return failures;
}

void keycat_fault_vfs_track_unsynced(int on) {
    pthread_mutex_lock(&state.lock);
    state.tracking = on;
    if (!on) forgetAllChanges();
    pthread_mutex_unlock(&state.lock);
}

void keycat_fault_vfs_skip_real_syncs(int on) {
    pthread_mutex_lock(&state.lock);
    state.skipRealSyncs = on;
    pthread_mutex_unlock(&state.lock);
}

int keycat_fault_vfs_power_lost(void) {
    pthread_mutex_lock(&state.lock);
    int lost = state.powerLost;
    pthread_mutex_unlock(&state.lock);
    return lost;
}

long long keycat_fault_vfs_discarded_writes(void) {
    pthread_mutex_lock(&state.lock);
    long long discarded = state.discarded;
    pthread_mutex_unlock(&state.lock);
    return discarded;
}

long long keycat_fault_vfs_kept_writes(void) {
    pthread_mutex_lock(&state.lock);
    long long kept = state.kept;
    pthread_mutex_unlock(&state.lock);
    return kept;
}
