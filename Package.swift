// swift-tools-version:6.0
import PackageDescription

// The library's layers (ARCHITECTURE.md), lowest first: the facade and what it re-exports.
// Tests import each layer they test (`@testable import TxLedgerStore`).
let libraryLayers: [Target.Dependency] = [
    "TxLedgerSodium", "TxLedgerCore", "TxLedgerMembership", "TxLedgerStore", "TxLedgerBundle", "TxLedgerReplication",
    "TxLedgerFolderSync", "TxLedgerStatus", "TxLedger",
]

let testDependencies: [Target.Dependency] =
    libraryLayers + [
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
let sodiumPackages: [Package.Dependency] = [
    .package(url: "https://github.com/jedisct1/swift-sodium", .upToNextMinor(from: "0.9.1"))
]
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
    // Each dependency pinned to the minor version the suite was run with (README, "Updating
    // dependencies"): a new minor version is taken on purpose, after the suite passes with it.
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", .upToNextMinor(from: "7.10.0")),
        .package(url: "https://github.com/apple/swift-argument-parser", .upToNextMinor(from: "1.8.2")),
        .package(url: "https://github.com/apple/swift-log", .upToNextMinor(from: "1.16.2")),
        .package(url: "https://github.com/x-sheep/swift-property-based", .upToNextMinor(from: "2.0.1")),
        // Tests only: loopback HTTP servers that play chain endpoints.
        .package(url: "https://github.com/swhitty/FlyingFox", .upToNextMinor(from: "0.27.1")),
        // Tests only: child processes (the built txledger, python3). Foundation's Process reads
        // past a buffer when it launches on Linux (swift-corelibs-foundation #5472) and crashes
        // a suite that launches hundreds of them; FilePath comes from swift-system.
        .package(url: "https://github.com/swiftlang/swift-subprocess", .upToNextMinor(from: "1.0.2")),
        .package(url: "https://github.com/apple/swift-system", .upToNextMinor(from: "1.8.1")),
        // `swift package generate-documentation --target TxLedger`: the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", .upToNextMinor(from: "1.5.0")),
    ] + sodiumPackages,
    targets: [
        // libsodium on Linux, found through pkg-config. Only TxLedgerSodium imports it.
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
        // The virtual table `record_cold`: the records a ledger keeps in blocks (`record_block`,
        // Specs/schema.md, "Record blocks") as rows, registered on every connection (Store).
        .target(
            name: "CRecordBlocks",
            dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        // The library's layers, lowest first (ARCHITECTURE.md). Each may use only the targets
        // below it, which the compiler enforces; apps import the facade, TxLedger.
        // libsodium's primitives: generic hash, random bytes, secretstream, Argon2id, Ed25519
        // signatures, X25519 sealed boxes.
        .target(name: "TxLedgerSodium", dependencies: [sodium]),
        // The model, clock, CRDT, the record's one definition and its frame codec, queries as
        // values: no GRDB, no libsodium of its own.
        .target(name: "TxLedgerCore", dependencies: ["TxLedgerSodium"]),
        // Device identities and the vault's signed membership log with its evaluation
        // (Specs/devices.md).
        .target(name: "TxLedgerMembership", dependencies: ["TxLedgerCore", "TxLedgerSodium"]),
        // The ledger file: opening, migrations, transactions, rows, history queries.
        .target(
            name: "TxLedgerStore",
            dependencies: [
                "TxLedgerCore",
                "TxLedgerMembership",
                "CSQLiteDefensive",
                "CRecordBlocks",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, to read stored rows' columns (Store/StoredRow.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The encrypted bundle file: header, keys, chunks, the change set's payload.
        .target(name: "TxLedgerBundle", dependencies: ["TxLedgerCore", "TxLedgerMembership", "TxLedgerSodium"]),
        // Merging change sets into the store, from bundles and other ledger files.
        .target(name: "TxLedgerReplication", dependencies: ["TxLedgerStore", "TxLedgerBundle", "TxLedgerMembership"]),
        // Replication through a shared folder.
        .target(name: "TxLedgerFolderSync", dependencies: ["TxLedgerReplication", "TxLedgerMembership"]),
        // Asking chains about pending transactions.
        .target(name: "TxLedgerStatus", dependencies: ["TxLedgerStore"]),
        // The facade apps import: `Ledger`, re-exporting the layers' public types.
        .target(
            name: "TxLedger",
            dependencies: [
                "TxLedgerCore",
                "TxLedgerMembership",
                "TxLedgerStore",
                "TxLedgerBundle",
                "TxLedgerReplication",
                "TxLedgerFolderSync",
                "TxLedgerStatus",
            ],
            // The reasons for the APIs Apple asks apps to declare (App Store privacy manifest).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .executableTarget(
            name: "TxLedgerCLI",
            dependencies: [
                "TxLedger",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmarks (README, "Benchmarks"); run in release mode by scripts/bench.sh.
        .executableTarget(
            name: "TxLedgerBench",
            dependencies: [
                "TxLedger",
                "TxLedgerMembership",
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
            dependencies: libraryLayers + [
                .product(name: "GRDB", package: "GRDB.swift"),
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
