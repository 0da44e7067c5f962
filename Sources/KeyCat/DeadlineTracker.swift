import KeyCatDomain
import KeyCatInfrastructure

/// A shop's ``ParcelTracker`` given a deadline per question: a tracking service that hangs
/// counts as failed after `timeout` (`gatewayTimeout`), so reconciliation's run goes on.
///
/// The question runs in a task of its own that the deadline does not cancel (a tracker that
/// ignores cancellation would otherwise hold the run); its late answer is dropped.
struct DeadlineTracker: ParcelTracker {
    let tracker: any ParcelTracker
    let timeout: Duration

    init(_ tracker: any ParcelTracker, timeout: Duration) {
        self.tracker = tracker
        self.timeout = timeout
    }

    func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack {
        let outcome = FirstOutcome<Result<ParcelTrack, KeyCatError>>()
        let (tracker, timeout) = (tracker, timeout)
        return try await withCheckedContinuation { continuation in
            outcome.wait(with: continuation)
            let timer = Task.detached {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                outcome.settle(.failure(KeyCatError(.gatewayTimeout, "the parcel tracker did not answer within \(timeout)")))
            }
            Task.detached {
                let answer: Result<ParcelTrack, KeyCatError>
                do throws(KeyCatError) {
                    answer = .success(try await tracker.track(carrier: carrier, trackingNumber: trackingNumber))
                } catch {
                    answer = .failure(error)
                }
                timer.cancel()
                outcome.settle(answer)
            }
        }.get()
    }
}
