internal import CCrypto
internal import CSQLite

/// The versions of the C libraries this process actually loaded (not the headers it was built
/// against): what `keycat-admin --version` reports.
package enum LibraryVersions {
    /// SQLite's version, e.g. `3.40.1`.
    package static var sqlite: String { String(cString: sqlite3_libversion()) }
    /// OpenSSL's version text, e.g. `OpenSSL 3.0.17 1 Jul 2025`.
    package static var openSSL: String { String(cString: OpenSSL_version(Int32(OPENSSL_VERSION))) }
}
