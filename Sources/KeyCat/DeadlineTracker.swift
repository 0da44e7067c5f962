import KeyCatDomain
import KeyCatInfrastructure

/// A shop's ``ParcelTracker`` given a deadline per question: a tracking service that hangs
/// counts as failed after `timeout` (`gatewayTimeout`), so reconciliation's run goes on.
///
/// The question runs in a task of its own, cancelled when the deadline passes or the caller is
/// cancelled; the answer is not waited for after either, so a tracker that ignores
/// cancellation holds only its own task, and its late answer is dropped.
struct DeadlineTracker: ParcelTracker {
    let tracker: any ParcelTracker
    let timeout: Duration

    init(_ tracker: any ParcelTracker, timeout: Duration) {
        self.tracker = tracker
        self.timeout = timeout
    }

    func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack {
        let outcome = FirstOutcome<Result<ParcelTrack, KeyCatError>>()
        let tracker = tracker
        let question = Task.detached {
            let answer: Result<ParcelTrack, KeyCatError>
            do throws(KeyCatError) {
                answer = .success(try await tracker.track(carrier: carrier, trackingNumber: trackingNumber))
            } catch {
                answer = .failure(error)
            }
            outcome.settle(answer)
        }
        let timer = Task.detached { [timeout] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            outcome.settle(.failure(KeyCatError(.gatewayTimeout, "the parcel tracker did not answer within \(timeout)")))
            question.cancel()
        }
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { outcome.wait(with: $0) }
        } onCancel: {
            outcome.settle(.failure(KeyCatError(.gatewayUnavailable, "tracking was cancelled")))
            question.cancel()
        }
        timer.cancel()
        return try answer.get()
    }
}
