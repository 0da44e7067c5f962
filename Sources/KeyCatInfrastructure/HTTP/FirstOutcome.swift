import Synchronization

/// The first of several racing outcomes, handed to the one task waiting for it; the later ones
/// are dropped. An outcome that comes before the waiter (a task cancelled before it waited) is
/// kept for it. The HTTP transport races an exchange against its timeout with it, and KeyCat a
/// parcel tracker's answer against its deadline.
package final class FirstOutcome<Value: Sendable>: Sendable {
    private enum State {
        case open(CheckedContinuation<Value, Never>?)
        case settled(Value?)
    }

    private let state = Mutex(State.open(nil))

    package init() {}

    package func wait(with continuation: CheckedContinuation<Value, Never>) {
        let early = state.withLock { state -> Value? in
            switch state {
            case .open:
                state = .open(continuation)
                return nil
            case .settled(let value):
                state = .settled(nil)
                return value
            }
        }
        if let early { continuation.resume(returning: early) }
    }

    package func settle(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard case .open(let continuation) = state else { return nil }
            state = .settled(continuation == nil ? value : nil)
            return continuation
        }
        waiter?.resume(returning: value)
    }
}
