import KeyCat

/// How users and seller applications look on the command line.
enum UserPresenter {
    static let headers = ["ID", "EMAIL", "NICK", "ROLE", "STATUS"]

    static func row(_ user: User) -> [String] {
        [String(user.id.rawValue), user.email, user.nick, user.role.rawValue, status(user)]
    }

    /// `active`, `suspended` or `withdrawn`.
    static func status(_ user: User) -> String {
        !user.isActive ? "withdrawn" : user.isSuspended ? "suspended" : "active"
    }

    static func json(_ user: User) -> JSONValue { json(user, counts: nil) }

    static func json(_ user: User, counts: FollowCounts?) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .int(user.id.rawValue)), ("email", .string(user.email)), ("nick", .string(user.nick)),
            ("role", .string(user.role.rawValue)), ("phone", .optional(user.phone)),
            ("birthday", .optional(user.birthday.map { "\($0)" })),
            ("profile_image", .optional(user.profileImage)),
            ("created_at", Formatting.timestamp(user.createdAt)),
            ("withdrawn_at", Formatting.timestamp(user.withdrawnAt)),
            ("suspended_at", Formatting.timestamp(user.suspendedAt)), ("status", .string(status(user))),
        ]
        if let counts {
            fields += [("follower_count", .int(counts.followers)), ("following_count", .int(counts.following))]
        }
        return .object(fields)
    }

    static func details(_ user: User, counts: FollowCounts) -> String {
        var table = TextTable(["FIELD", "VALUE"])
        let status: String = if let withdrawn = user.withdrawnAt {
            "withdrawn \(Formatting.timestamp(withdrawn))"
        } else if let suspended = user.suspendedAt {
            "suspended \(Formatting.timestamp(suspended))"
        } else {
            "active"
        }
        for (key, value) in [
            ("id", String(user.id.rawValue)), ("email", user.email), ("nick", user.nick),
            ("role", user.role.rawValue), ("phone", user.phone ?? "-"),
            ("birthday", user.birthday.map { "\($0)" } ?? "-"),
            ("created", Formatting.timestamp(user.createdAt)),
            ("status", status),
            ("followers", String(counts.followers)), ("following", String(counts.following)),
        ] { table.append([key, value]) }
        return table.rendered()
    }

    static let applicationHeaders = ["ID", "USER", "BUSINESS NUMBER", "REPRESENTATIVE", "REGISTRY", "STATUS", "REASON"]

    static func row(_ application: SellerApplication) -> [String] {
        [String(application.id.rawValue), String(application.userID.rawValue), "\(application.businessNumber)",
         application.representativeName, "\(application.registryStatus)", application.status.rawValue,
         application.reason ?? ""]
    }

    static func json(_ application: SellerApplication) -> JSONValue {
        .object([
            ("id", .int(application.id.rawValue)), ("user_id", .int(application.userID.rawValue)),
            ("business_number", .string("\(application.businessNumber)")),
            ("representative", .string(application.representativeName)),
            ("opening_date", .string("\(application.openingDate)")),
            ("registry_status", .string("\(application.registryStatus)")),
            ("status", .string(application.status.rawValue)), ("reason", .optional(application.reason)),
            ("created_at", Formatting.timestamp(application.createdAt)),
            ("decided_at", Formatting.timestamp(application.decidedAt)),
            ("decided_by", .optional(application.decidedBy)),
        ])
    }
}
