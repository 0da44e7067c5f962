// swift-tools-version:6.0
//
// KeyCat's REST API served by Hummingbird: a separate package, so that the KeyCat package keeps
// taking no Swift packages.
import PackageDescription

let package = Package(
    name: "HummingbirdServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(name: "KeyCat", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "keycat-server",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "KeyCat", package: "KeyCat"),
                .product(name: "KeyCatAPI", package: "KeyCat"),
                .product(name: "KeyCatPGSimulator", package: "KeyCat"),
                "PGPaymentWindow",
            ],
            path: "Sources/KeyCatServer"
        ),
        // The PG simulator as PortOne v1's REST API over HTTP, for shops' own code and PortOne's
        // clients (scripts/pg-sandbox).
        .executableTarget(
            name: "keycat-pg-sandbox",
            dependencies: [
                "PGPaymentWindow",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "KeyCat", package: "KeyCat"),
                .product(name: "KeyCatPGSimulator", package: "KeyCat"),
            ],
            path: "Sources/PGSandbox"
        ),
        // The buyer's payment window and webhook delivery, shared by the server and the sandbox.
        .target(
            name: "PGPaymentWindow",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "KeyCatPGSimulator", package: "KeyCat"),
            ],
            path: "Sources/PGPaymentWindow"
        ),
    ],
    swiftLanguageModes: [.v6]
)
