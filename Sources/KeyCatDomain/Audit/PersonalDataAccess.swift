import Foundation

/// Records an operator's reads of other people's personal data as `personal_data.read` audit
/// entries: who, when, whose (`target`) and what (`task`), as 개인정보의 안전성 확보조치 기준 §8
/// asks of a shop's access records (접속기록). The values looked up (an email) are never copied
/// into it. Each is written before the answer is returned: a read that cannot be recorded fails.
///
/// Only operators' reads are recorded: a person reading their own data, and a seller reading the
/// parcels they ship, are not. A service given no log (a read-only open) records nothing.
struct PersonalDataAccess: Sendable {
    let log: (any AuditLog)?
    let clock: any WallClock

    /// Records `principal`'s read of `target`, when they are an operator.
    func record(by principal: Principal, to target: String, _ task: String) async throws(KeyCatError) {
        guard let log, principal.role == .admin else { return }
        _ = try await log.record(AuditEntry(actor: principal.auditActor, action: "personal_data.read", target: target,
                                            detail: task, at: clock.now()))
    }

    /// Records a page of `ids` an operator was shown, under `target`, when it holds any: the
    /// record names the people's records by id, never the terms that found them.
    func record(by principal: Principal, to target: String, _ task: String, ids: [Int64]) async throws(KeyCatError) {
        guard !ids.isEmpty else { return }
        try await record(by: principal, to: target, task + ": " + ids.map(String.init).joined(separator: ","))
    }
}
