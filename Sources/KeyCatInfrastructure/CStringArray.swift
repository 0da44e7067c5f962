import Foundation

/// Calls `body` with `strings` as a NULL-terminated array of C strings (what `posix_spawn`'s
/// `argv` and `envp` and `PQconnectdbParams`' keywords and values take), copies freed after.
func withCStringArray<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return body(copies + [nil])
}
