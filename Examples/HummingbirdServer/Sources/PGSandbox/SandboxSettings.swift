import Foundation
import KeyCat
import KeyCatPGSimulator

/// What the sandbox reads from its environment.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `HOST`, `PORT` | where to listen | `127.0.0.1`, `9090` |
/// | `KEYCAT_PG_FILE` | the SQLite file the sandbox keeps its state in (a KeyCat `keycat.pg.db` works) | `pg-sandbox.db` |
/// | `KEYCAT_PG_API_KEY`, `KEYCAT_PG_API_SECRET` | the `imp_key` and `imp_secret` `POST /users/getToken` accepts | random, printed at start |
/// | `KEYCAT_PG_SANDBOX_KEY` | the key the control API under `/sandbox/` requires (`Authorization: Bearer …`) | random, printed at start |
/// | `KEYCAT_PG_WEBHOOK_URL` | where webhooks go from the start (the control API can change it) | none |
/// | `KEYCAT_PG_NOTIFY_API_CANCELS` | `1`: notify cancels made through the API too (v1's option) | off |
struct SandboxSettings {
    var host = "127.0.0.1"
    var port = 9090
    var file = "pg-sandbox.db"
    var credentials: PGSimulator.Credentials
    var sandboxKey: String
    var webhookURL: URL?
    var notifyAPICancels = false
    /// What was generated rather than given, to print at start.
    var generated: [String] = []

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(environment: [String: String]) throws {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        var generated: [String] = []
        func secret(_ name: String, prefix: String) -> String {
            if let given = value(name) { return given }
            let made = prefix + SandboxSettings.randomToken()
            generated.append("\(name)=\(made)")
            return made
        }
        if let host = value("HOST") { self.host = host }
        if let port = value("PORT") {
            guard let number = Int(port), (1...65_535).contains(number) else { throw Invalid(description: "PORT must be 1–65535") }
            self.port = number
        }
        if let file = value("KEYCAT_PG_FILE") { self.file = file }
        credentials = PGSimulator.Credentials(
            key: secret("KEYCAT_PG_API_KEY", prefix: "imp_"), secret: secret("KEYCAT_PG_API_SECRET", prefix: ""))
        sandboxKey = secret("KEYCAT_PG_SANDBOX_KEY", prefix: "sbx_")
        if let url = value("KEYCAT_PG_WEBHOOK_URL") {
            guard let parsed = URL(string: url), parsed.scheme?.hasPrefix("http") == true, parsed.host != nil else {
                throw Invalid(description: "KEYCAT_PG_WEBHOOK_URL must be an http(s) URL")
            }
            webhookURL = parsed
        }
        notifyAPICancels = value("KEYCAT_PG_NOTIFY_API_CANCELS") == "1"
        self.generated = generated
    }

    /// 24 random bytes, base64url.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
