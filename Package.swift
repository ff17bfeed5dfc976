// swift-tools-version:6.0
import PackageDescription

let testDependencies: [Target.Dependency] = [
    "TxLedger",
    "TxLedgerTestSupport",
    .product(name: "GRDB", package: "GRDB.swift"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "PropertyBased", package: "swift-property-based"),
]

// libsodium. On Linux: the system library (pkg-config, `apt-get install libsodium-dev`), as
// `CSodium`. On Apple platforms, where an iOS app cannot link a Homebrew library: swift-sodium's
// `Clibsodium`, libsodium built as an XCFramework, declared only there so that Linux resolves
// nothing more. Both give the same C API; the Swift code imports whichever exists. The Apple
// branch is not built by CI (README, "Apple platforms").
#if os(macOS)
let sodiumPackages: [Package.Dependency] = [.package(url: "https://github.com/jedisct1/swift-sodium", from: "0.9.1")]
let sodium: Target.Dependency = .product(name: "Clibsodium", package: "swift-sodium")
#else
let sodiumPackages: [Package.Dependency] = []
let sodium: Target.Dependency = "CSodium"
#endif

let package = Package(
    name: "TxLedger",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TxLedger", targets: ["TxLedger"]),
        .executable(name: "txledger", targets: ["TxLedgerCLI"]),
        .executable(name: "txledger-bench", targets: ["TxLedgerBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Tests only: loopback HTTP servers that play chain endpoints.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // Tests only: child processes (the built txledger, python3). Foundation's Process reads
        // past a buffer when it launches on Linux (swift-corelibs-foundation #5472) and crashes
        // a suite that launches hundreds of them; FilePath comes from swift-system.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation --target TxLedger`: the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ] + sodiumPackages,
    targets: [
        // libsodium on Linux, found through pkg-config. Only Sources/TxLedger/Crypto imports it.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // One C function: sqlite3_db_config's DEFENSIVE flag, which Swift cannot call (variadic),
        // set on the connection that reads another replica's ledger file (Store/OtherLedgerFile).
        .target(
            name: "CSQLiteDefensive",
            dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "TxLedger",
            dependencies: [
                sodium,
                "CSQLiteDefensive",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, to bind rows on the write path (Store/Statement+Binding.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The reasons for the APIs Apple asks apps to declare (App Store privacy manifest).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .executableTarget(
            name: "TxLedgerCLI",
            dependencies: [
                "TxLedger",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmarks (README, "Benchmarks"); run in release mode by scripts/bench.sh.
        .executableTarget(
            name: "TxLedgerBench",
            dependencies: [
                "TxLedger",
                sodium,
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share: fixtures, temporary ledgers, the built CLI, loopback chain
        // servers, child processes. A target of its own, as swift-argument-parser's
        // ArgumentParserTestHelpers; the test targets import it with @testable.
        .target(
            name: "TxLedgerTestSupport",
            dependencies: [
                "TxLedger",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TxLedgerTestSupport"
        ),
        // The tests by kind (README, "Tests"): `swift test --filter TxLedgerUnitTests` runs the
        // fast ones. Unit: the library in process.
        .testTarget(name: "TxLedgerUnitTests", dependencies: testDependencies),
        // End to end: the built txledger binary, run as a person or a script would.
        .testTarget(name: "TxLedgerEndToEndTests", dependencies: testDependencies),
        // Crash and multi-process: txledger killed with SIGKILL, several processes on one file.
        .testTarget(name: "TxLedgerCrashTests", dependencies: testDependencies),
        // Long randomized searches: the bundle fuzzer and the replica convergence search.
        .testTarget(name: "TxLedgerFuzzTests", dependencies: testDependencies),
    ]
)
