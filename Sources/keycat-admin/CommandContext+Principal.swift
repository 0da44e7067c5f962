import KeyCat

extension CommandContext {
    /// The operator console acting for this command: an admin, audited as ``actor``
    /// (`cli:<login name>`).
    var operatorPrincipal: Principal {
        Principal.operatorConsole(actor.hasPrefix("cli:") ? String(actor.dropFirst(4)) : actor)
    }
}
