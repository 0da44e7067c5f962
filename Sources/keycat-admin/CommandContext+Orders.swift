import Foundation
import KeyCat
import KeyCatInfrastructure
import Synchronization

extension CommandContext {
    /// The operator console principal for this user. ``actor`` is already `cli:<user>`, and the
    /// principal adds the `cli:` itself, so it is given the bare name.
    var operatorPrincipal: Principal {
        Principal.operatorConsole(actor.hasPrefix("cli:") ? String(actor.dropFirst(4)) : actor)
    }

    /// Opens the existing database for order and payment work: payments go to the simulator
    /// beside it (`keycat.pg.db`), and PG exchanges are not logged on the operator's terminal.
    func openForPayments() throws -> KeyCat {
        try requireFile()
        var configuration = configuration()
        configuration.createIfMissing = false
        configuration.gatewayLog = DiscardingLogSink()
        return try KeyCat.open(configuration)
    }
}

/// Runs async use cases from a synchronous command: the work runs on the cooperative pool while
/// the main thread (no part of that pool) waits for it.
func waitFor<Answer: Sendable>(_ body: @escaping @Sendable () async throws -> Answer) throws -> Answer {
    let outcome = Mutex<Result<Answer, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<Answer, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0 }!.get()
}
