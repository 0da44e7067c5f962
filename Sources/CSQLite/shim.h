#ifndef KEYCAT_CSQLITE_SHIM_H
#define KEYCAT_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro around a function-pointer cast that Swift cannot import;
/// these wrappers bind with it so SQLite copies the bytes before the call returns.
static inline int keycat_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index,
                                                     const char *text, int byteCount) {
    return sqlite3_bind_text(statement, index, text, byteCount, SQLITE_TRANSIENT);
}

/// SQLITE_STATIC: SQLite reads the bytes where they are, until the parameter is bound again or
/// the statement is finalized, so the caller keeps them there that long.
static inline int keycat_sqlite3_bind_text_static(sqlite3_stmt *statement, int index,
                                                  const char *text, int byteCount) {
    return sqlite3_bind_text(statement, index, text, byteCount, SQLITE_STATIC);
}

static inline int keycat_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index,
                                                     const void *bytes, int byteCount) {
    return sqlite3_bind_blob(statement, index, bytes, byteCount, SQLITE_TRANSIENT);
}

/// sqlite3_db_config is variadic, so Swift cannot call it directly.
static inline int keycat_sqlite3_enable_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

/// sqlite3_config is variadic too. Turns off SQLite's memory statistics, which take a global
/// mutex around every allocation and free (SQLite recommends building with them off:
/// https://sqlite.org/compile.html#default_memstatus). Only possible before SQLite initialises:
/// afterwards it answers SQLITE_MISUSE and changes nothing.
static inline int keycat_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
