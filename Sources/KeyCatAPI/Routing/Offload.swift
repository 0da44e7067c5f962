import Dispatch
import KeyCat

/// Runs blocking work (PBKDF2 password hashing, ~150 ms of CPU) on a Dispatch queue instead of
/// a thread of Swift's cooperative pool, so other requests' tasks keep running meanwhile.
func offloaded<Value: Sendable>(_ work: @escaping @Sendable () throws(KeyCatError) -> Value) async throws(KeyCatError) -> Value {
    let result: Result<Value, KeyCatError> = await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(returning: Result { () throws(KeyCatError) -> Value in try work() })
        }
    }
    return try result.get()
}
