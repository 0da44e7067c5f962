/// Where a Postgres database is and how KeyCat uses it.
package struct PostgresConfiguration: Sendable {
    /// A `postgres://user:password@host:port/database?sslmode=…` URL or a libpq `key=value`
    /// string (<https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING>).
    /// When nil, libpq reads its own environment variables (`PGHOST`, `PGPORT`, `PGUSER`,
    /// `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`…) and falls back to a local socket.
    package var url: String?
    /// How long one connection attempt may take before it fails, in seconds (libpq's
    /// `connect_timeout`; libpq treats values below 2 as 2). A setting in `url` wins.
    package var connectTimeoutSeconds: Int = 5
    /// The name the server shows for these sessions in `pg_stat_activity`. A setting in `url` wins.
    package var applicationName: String = "keycat"
    /// The schema unqualified names resolve to (`search_path`), set on every new connection;
    /// nil keeps the server's default. Tests give each run its own schema this way.
    package var searchPath: String?
    /// The most connections the pool opens at once; further callers wait for one to come back.
    package var maximumConnections: Int = 4
    /// How many times a write transaction runs in all when it fails with a serialization
    /// failure, a deadlock, or a connection lost before its `COMMIT` (see
    /// ``PostgresDatabase/write(isolation:_:)``). Ten: with five, a checkout on a product that
    /// 4 buyers raced for lost every attempt once in 4,800 orders; ten attempts, with pauses that
    /// double up to 64 ms, wait at most about a third of a second before giving up.
    package var maximumTransactionAttempts: Int = 10
    /// A query of one value sent just before every write transaction's `COMMIT`, in the same
    /// exchange (no round trip of its own); its answer is the connection's
    /// ``PostgresConnection/commitProbeAnswer``. KeyCat asks a transaction-local setting its
    /// catalog trigger sets, to learn whether the transaction changed the catalog.
    package var commitProbe: String?
    /// The channel on which the writes the ``commitProbe`` reports notify themselves (KeyCat's
    /// catalog trigger): an announced write that did (``PostgresCommitAnnouncer``) needs no
    /// notification of its own, and servers listen for both.
    package var commitProbeChannel: String?
    /// A call made once on every new connection, last in the exchange that sets it up (no
    /// round trip of its own): KeyCat's stores take a shared advisory lock with it, which a
    /// restore looks for.
    package var onConnect: String?

    package init(url: String? = nil) {
        self.url = url
    }
}
