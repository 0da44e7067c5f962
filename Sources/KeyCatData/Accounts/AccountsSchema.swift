import KeyCatInfrastructure

/// Migration 2: accounts, the refresh tokens their sessions rotate, the business registry seller
/// applications are checked against, and the applications. Emails are stored case-folded and
/// unique among live accounts only, so a withdrawal frees its email; a refresh token is kept as
/// its SHA-256 digest alone.
enum AccountsSchema {
    static func sql(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE users (
            id            \(type.rowID),
            email         \(type.text) NOT NULL,
            nick          \(type.text) NOT NULL,
            password_hash \(type.text) NOT NULL,
            phone         \(type.text),
            birthday      \(type.text),
            profile_image \(type.text),
            role          \(type.text) NOT NULL CHECK (role IN ('buyer', 'seller', 'admin')),
            created_at    \(type.integer) NOT NULL,
            updated_at    \(type.integer) NOT NULL,
            withdrawn_at  \(type.integer)
        )\(type.tableOptions);
        -- Emails are stored case-folded; a withdrawn account frees its email.
        CREATE UNIQUE INDEX users_live_email ON users (email) WHERE withdrawn_at IS NULL;

        CREATE TABLE refresh_token_families (
            id         \(type.rowID),
            user_id    \(type.integer) NOT NULL REFERENCES users (id),
            created_at \(type.integer) NOT NULL,
            revoked_at \(type.integer)
        )\(type.tableOptions);
        CREATE INDEX refresh_token_families_by_user ON refresh_token_families (user_id);

        -- Only the SHA-256 digest of a refresh token is stored.
        CREATE TABLE refresh_tokens (
            id         \(type.rowID),
            digest     \(type.blob) NOT NULL UNIQUE,
            family_id  \(type.integer) NOT NULL REFERENCES refresh_token_families (id),
            issued_at  \(type.integer) NOT NULL,
            expires_at \(type.integer) NOT NULL,
            rotated_at \(type.integer)
        )\(type.tableOptions);
        CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id);

        CREATE TABLE business_registry (
            business_number \(type.text) PRIMARY KEY,
            status          \(type.text) NOT NULL CHECK (status IN ('active', 'suspended', 'closed', 'unregistered')),
            updated_at      \(type.integer) NOT NULL
        )\(type.tableOptions);

        CREATE TABLE seller_applications (
            id                  \(type.rowID),
            user_id             \(type.integer) NOT NULL REFERENCES users (id),
            business_number     \(type.text) NOT NULL,
            representative_name \(type.text) NOT NULL,
            opening_date        \(type.text) NOT NULL,
            registry_status     \(type.text) NOT NULL,
            status              \(type.text) NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
            reason              \(type.text),
            created_at          \(type.integer) NOT NULL,
            decided_at          \(type.integer),
            decided_by          \(type.text)
        )\(type.tableOptions);
        CREATE UNIQUE INDEX seller_applications_one_pending_per_user
            ON seller_applications (user_id) WHERE status = 'pending';
        CREATE UNIQUE INDEX seller_applications_one_live_per_number
            ON seller_applications (business_number) WHERE status IN ('pending', 'approved');
        CREATE INDEX seller_applications_by_status ON seller_applications (status, id);
        CREATE INDEX seller_applications_by_user ON seller_applications (user_id, id);
        """
    }

    /// Migration 45: the registry may keep each business's representative and opening date, which
    /// an application must then match (``BusinessRegistryEntry/confirms(representativeName:openingDate:)``).
    static func registryOwnersSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        ALTER TABLE business_registry ADD COLUMN representative_name \(type.text);
        ALTER TABLE business_registry ADD COLUMN opening_date \(type.text);
        """
    }
}
