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
    func openForPayments() async throws -> KeyCat {
        try requireFile()
        var configuration = configuration()
        configuration.createIfMissing = false
        configuration.gatewayLog = DiscardingLogSink()
        return try await KeyCat.open(configuration)
    }
}
