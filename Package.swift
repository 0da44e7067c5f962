// swift-tools-version:6.0
//
// KeyCat: the backend of a commerce platform for mechanical keyboards, keycaps and switches.
// It takes no Swift packages: the toolchain and three system libraries (SQLite, OpenSSL's
// libcrypto and PostgreSQL's libpq) are everything it needs.
import PackageDescription

let package = Package(
    name: "KeyCat",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "KeyCat", targets: ["KeyCat"]),
        .executable(name: "keycat-admin", targets: ["keycat-admin"]),
        .executable(name: "keycat-bench", targets: ["keycat-bench"]),
        .library(name: "KeyCatPGSimulator", targets: ["KeyCatPGSimulator"]),
        .library(name: "KeyCatAPI", targets: ["KeyCatAPI"]),
    ],
    targets: [
        // System libraries, each a module map plus a shim for what Swift cannot import.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        // The layers. Arrows point inwards only: KeyCat → Data → {Domain, Infrastructure}, and
        // the composition root KeyCat reaches Domain and Infrastructure directly too. Every
        // target names each target it imports: the compiler lets a target import one it reaches
        // through another, PackageGraphTests does not.
        .target(name: "KeyCatDomain"),
        .target(name: "KeyCatInfrastructure", dependencies: ["CSQLite", "CCrypto", "CLibPQ"]),
        .target(name: "KeyCatData", dependencies: ["KeyCatDomain", "KeyCatInfrastructure"]),
        // The composition root: opens the SQLite or Postgres database (Infrastructure) the Data
        // layer's stores run on, and may hand out the simulator as its gateway (staging, tests,
        // the CLI).
        .target(name: "KeyCat", dependencies: ["KeyCatDomain", "KeyCatData", "KeyCatInfrastructure", "KeyCatPGSimulator"]),
        // The REST layer: a route table and one `respond(to:)` any server framework adapts to.
        // (Infrastructure for SHA-256, which tags the catalog's answers.)
        .target(name: "KeyCatAPI", dependencies: ["KeyCat", "KeyCatInfrastructure"]),
        // The demo drives the simulator's payment window (test cards) and its webhook delivery.
        .executableTarget(name: "keycat-admin", dependencies: ["KeyCat", "KeyCatInfrastructure", "KeyCatPGSimulator"]),
        // The benchmark: KeyCat against raw SQLite, libpq and libcrypto doing the same work.
        .executableTarget(
            name: "keycat-bench",
            dependencies: ["KeyCat", "KeyCatData", "KeyCatInfrastructure", "KeyCatPGSimulator", "CSQLite", "CCrypto", "CLibPQ"]),
        // The simulated payment gateway: speaks HTTP values only, so it needs nothing of the domain.
        .target(name: "KeyCatPGSimulator", dependencies: ["KeyCatInfrastructure"]),

        // Helpers shared by the test targets: temporary directories and Postgres schemas that
        // always clean up.
        .target(name: "KeyCatTestSupport", dependencies: ["KeyCatDomain", "KeyCatInfrastructure"], path: "Tests/KeyCatTestSupport"),
        // A SQLite VFS for the fault-injection and power-loss tests: fails the Nth read, write or
        // sync, or drops unsynced writes. Our own C, used only by the tests.
        .target(name: "CKeyCatFaultVFS", path: "Tests/CKeyCatFaultVFS", linkerSettings: [.linkedLibrary("sqlite3")]),
        .testTarget(name: "KeyCatDomainTests", dependencies: ["KeyCatDomain"]),
        .testTarget(name: "KeyCatInfrastructureTests", dependencies: ["KeyCatInfrastructure", "KeyCatTestSupport"]),
        // Golden/: the DDL each store runs, pinned (SchemaGoldenTests), read from the source tree.
        .testTarget(
            name: "KeyCatDataTests", dependencies: ["KeyCatData", "KeyCatDomain", "KeyCatInfrastructure", "KeyCatTestSupport"],
            exclude: ["Golden"]),
        // KeyCatData for its in-memory ports; the simulator to drive payments.
        .testTarget(name: "KeyCatTests", dependencies: ["KeyCat", "KeyCatData", "KeyCatInfrastructure", "KeyCatPGSimulator", "KeyCatTestSupport", "CKeyCatFaultVFS"]),
        .testTarget(
            name: "KeyCatAdminTests",
            dependencies: ["keycat-admin", "KeyCat", "KeyCatInfrastructure", "KeyCatPGSimulator", "KeyCatTestSupport"]),
        .testTarget(name: "KeyCatPGSimulatorTests", dependencies: ["KeyCatPGSimulator", "KeyCatInfrastructure", "KeyCatTestSupport"]),
        // The bench's own harness (its latency relay, its Postgres schemas), which its figures rest on.
        .testTarget(name: "KeyCatBenchTests", dependencies: ["keycat-bench", "KeyCatInfrastructure", "KeyCatTestSupport"]),
        // The REST layer driven in process over a real file, with the simulator as the PG.
        .testTarget(
            name: "KeyCatAPITests",
            dependencies: ["KeyCatAPI", "KeyCat", "KeyCatInfrastructure", "KeyCatPGSimulator", "KeyCatTestSupport"]),
        // The gateway client driven by the simulator's real answers.
        .testTarget(
            name: "KeyCatPaymentsTests",
            dependencies: ["KeyCatData", "KeyCatDomain", "KeyCatInfrastructure", "KeyCatPGSimulator", "KeyCatTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
