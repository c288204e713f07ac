// swift-tools-version:6.1
//
// quake-bake: bakes the USGS earthquake catalog into map bundles.
//
// The source tree reads as the pipeline:
//   SQLite    — read-only opening and other plumbing every database of ours shares
//   Catalog   — the event model and the ComCat formats (GeoJSON, CSV) every stage shares
//   HTTP      — the HTTP client on libcurl that fetch and publish share
//   Fetch     — counted, capped, resumable download from an FDSN event service
//   Store     — the SpatiaLite store: one row per event, newest version wins
//   Tiles     — thinning per zoom and vector-tile (MVT) encoding
//   BundleFormat — a bundle's file names and formats (MBTiles, PMTiles, app database, deltas), written once
//   Bundles   — MBTiles, PMTiles, GeoJSON, app database, manifest, atomic publishing
//   Operations — bake (cron), status, locking, configuration
//   BundleKit — for apps: a published bundle's pointer and the client that keeps a local copy current
//   Serve     — `serve`: a bundle over HTTP for MapLibre GL JS in a browser
//   quake-bake — the thin command-line front end
//   StandIn / usgs-stand-in — a local emulator of the USGS service for tests and the demo
import PackageDescription

let package = Package(
    name: "quake-bake",
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .executable(name: "quake-bake", targets: ["quake-bake"]),
        .executable(name: "usgs-stand-in", targets: ["usgs-stand-in"]),
        // For apps: keeps a local bundle current from a published one (Foundation and SQLite only).
        .library(name: "QuakeBundleKit", targets: ["QuakeBundleKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // System libraries (Debian packages installed by Scripts/setup).
        .systemLibrary(name: "CSpatiaLite", pkgConfig: "spatialite", providers: [.apt(["libspatialite-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CDeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The system SQLite for QuakeBundleKit where Apple's `SQLite3` module is not there (Linux).
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),

        // Shared plumbing: gzip, sha256, atomic files, workspace layout, logging, progress.
        .target(name: "QuakeCommon", dependencies: [
            "CZlib", "CDeflate", "CCrypto",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Common"),
        // SQLite plumbing every database of ours shares (GRDB underneath).
        .target(name: "QuakeSQLite", dependencies: [
            "QuakeCommon",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ], path: "Sources/SQLite"),
        // HTTP on libcurl, for fetch and publish: timeouts, streamed bodies, bounded headers.
        .target(name: "QuakeHTTP", dependencies: ["CCurl", "QuakeCommon"], path: "Sources/HTTP"),
        // The event model and the ComCat GeoJSON / CSV formats.
        .target(name: "QuakeCatalog", dependencies: ["QuakeCommon"], path: "Sources/Catalog"),

        // A bundle's formats, written once: its file names, MBTiles, PMTiles, the app database's
        // and the deltas' tables. No dependency at all, so that the app's library takes it too.
        .target(name: "QuakeBundleFormat", path: "Sources/BundleFormat"),

        // The app side: a published bundle's pointer, read by apps and written by `publish`.
        // Foundation and SQLite only, so that an iOS or macOS app can add it.
        .target(name: "QuakeBundleKit", dependencies: [
            "QuakeBundleFormat",
            .target(name: "CSQLite3", condition: .when(platforms: [.linux, .android, .openbsd, .windows, .wasi])),
        ], path: "Sources/BundleKit"),

        // Pipeline stages.
        .target(name: "QuakeFetch", dependencies: [
            "QuakeSQLite", "QuakeCatalog", "QuakeCommon", "QuakeHTTP",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Fetch"),
        .target(name: "QuakeStore", dependencies: [
            "QuakeSQLite", "QuakeCatalog", "QuakeCommon", "CSpatiaLite",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Store"),
        .target(name: "QuakeTiles", dependencies: [
            "QuakeBundleFormat", "QuakeCommon",
        ], path: "Sources/Tiles"),
        .target(name: "QuakeBundles", dependencies: [
            "QuakeSQLite", "QuakeStore", "QuakeTiles", "QuakeCatalog", "QuakeCommon", "QuakeBundleFormat",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Bundles"),
        // `publish`: a bundle to an S3-compatible store behind a pointer written last.
        .target(name: "QuakePublish", dependencies: [
            "QuakeHTTP", "QuakeBundleKit", "QuakeBundleFormat", "QuakeCommon", "CCrypto", "CZlib",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Publish"),
        .target(name: "QuakeOperations", dependencies: [
            "QuakeSQLite", "QuakeFetch", "QuakePublish", "QuakeStore", "QuakeBundles", "QuakeTiles", "QuakeCatalog", "QuakeCommon",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Yams", package: "Yams"),
        ], path: "Sources/Operations"),

        // `quake-bake serve`: a bundle over HTTP for MapLibre GL JS (vendored, see Sources/Serve/LICENSE-maplibre-gl.txt).
        // SwiftNIO, not FlyingFox: see BundleServer for why.
        .target(name: "QuakeServe", dependencies: [
            "QuakeBundles", "QuakeBundleFormat", "QuakeSQLite", "QuakeCommon",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/Serve", exclude: ["LICENSE-maplibre-gl.txt"]),

        // The command-line front end: parses arguments, calls one stage, reports.
        .executableTarget(name: "quake-bake", dependencies: [
            "QuakeOperations", "QuakeFetch", "QuakePublish", "QuakeStore", "QuakeBundles", "QuakeTiles", "QuakeCatalog", "QuakeCommon", "QuakeServe",
            "QuakeBundleKit", "QuakeBundleFormat",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/quake-bake"),

        // The USGS FDSN event service emulator (tests and the demo).
        .target(name: "USGSStandIn", dependencies: [
            "QuakeCatalog", "QuakeCommon",
            .product(name: "FlyingFox", package: "FlyingFox"),
            .product(name: "FlyingSocks", package: "FlyingFox"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Sources/StandIn"),
        .executableTarget(name: "usgs-stand-in", dependencies: [
            "USGSStandIn", "QuakeCatalog", "QuakeCommon",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/usgs-stand-in"),

        // Benchmarks: print figures (see BENCHMARKS.md), never assert timings.
        // A synthetic catalog of any size (seeded, with the real catalog's shape), for benchmarks and tests.
        .target(name: "QuakeSynthetic", dependencies: ["QuakeCatalog", "QuakeCommon"], path: "Benchmarks/Synthetic"),
        .target(name: "BenchSupport", path: "Benchmarks/Support"),
        .executableTarget(name: "bench-index", dependencies: [
            "BenchSupport", "QuakeSynthetic", "QuakeStore", "QuakeCatalog", "QuakeCommon",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Benchmarks/bench-index"),
        .executableTarget(name: "bench-export", dependencies: [
            "BenchSupport", "QuakeSynthetic", "QuakeBundles", "QuakeStore", "QuakeCatalog", "QuakeCommon",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Benchmarks/bench-export"),

        .executableTarget(name: "bench-queries", dependencies: [
            "BenchSupport", "QuakeBundleKit", "QuakeCommon",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ], path: "Benchmarks/bench-queries"),

        // Tests. Suites that need the stand-in or the CLI depend on the executables so they are built first.
        .target(name: "TestSupport", dependencies: [
            "QuakeCatalog", .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/Support"),
        // The shared toolbox, a folder of tests per folder of Sources/Common.
        .testTarget(name: "CommonTests", dependencies: ["QuakeCommon", "TestSupport"], path: "Tests/CommonTests"),
        // CSV.swift: the witness `CSVRows` is checked against.
        .testTarget(name: "CatalogTests", dependencies: [
            "QuakeCatalog", "QuakeCommon", "TestSupport",
            .product(name: "CSV", package: "CSV.swift"),
        ], path: "Tests/CatalogTests"),
        .testTarget(name: "StandInTests", dependencies: ["QuakeCatalog", "QuakeCommon", "TestSupport", "usgs-stand-in"], path: "Tests/StandInTests"),
        .testTarget(name: "FetchTests", dependencies: [
            "QuakeFetch", "QuakeHTTP", "QuakeCatalog", "QuakeCommon", "TestSupport", "usgs-stand-in", "quake-bake",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/FetchTests"),
        .testTarget(name: "StoreTests", dependencies: [
            "QuakeStore", "QuakeCatalog", "QuakeCommon", "QuakeSynthetic", "TestSupport", "usgs-stand-in", "quake-bake",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/StoreTests"),
        .testTarget(name: "TilesTests", dependencies: ["QuakeTiles", "QuakeCatalog", "QuakeCommon", "TestSupport"], path: "Tests/TilesTests"),
        .testTarget(name: "BundlesTests", dependencies: [
            "QuakeBundles", "QuakeStore", "QuakeSQLite", "QuakeTiles", "QuakeCatalog", "QuakeCommon", "QuakeSynthetic", "TestSupport", "quake-bake", "usgs-stand-in",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/BundlesTests"),
        // The bundle's formats, and that nothing outside Sources/BundleFormat writes them again.
        .testTarget(name: "BundleFormatTests", dependencies: ["QuakeBundleFormat", "TestSupport"], path: "Tests/BundleFormatTests"),
        .testTarget(name: "HTTPTests", dependencies: ["QuakeHTTP", "TestSupport"], path: "Tests/HTTPTests"),
        .testTarget(name: "PublishingTests", dependencies: [
            "QuakePublish", "QuakeHTTP", "QuakeBundleKit", "QuakeCatalog", "QuakeCommon", "QuakeSynthetic", "TestSupport", "quake-bake",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/PublishingTests"),
        // The app library: its codecs against libcrypto and zlib, its checks, updates over file:// and HTTP, its queries.
        .testTarget(name: "BundleKitTests", dependencies: [
            "QuakeBundleKit", "QuakeCommon", "TestSupport", "quake-bake",
            .product(name: "GRDB", package: "GRDB.swift"),
        ], path: "Tests/BundleKitTests"),
        .testTarget(name: "OperationsTests", dependencies: [
            "QuakeOperations", "QuakeFetch", "QuakeStore", "QuakeCatalog", "QuakeCommon", "TestSupport", "usgs-stand-in", "quake-bake",
            .product(name: "GRDB", package: "GRDB.swift"),
        ], path: "Tests/OperationsTests"),
    ]
)

// Fuzz targets (libFuzzer): built only by Scripts/fuzz, which sets QUAKE_BAKE_FUZZ and builds with
// `--sanitize=fuzzer` and AddressSanitizer into .build-fuzz; without it (CI, `swift build`, the
// tests) the package has no such targets. Each is one `LLVMFuzzerTestOneInput` (see Fuzz/README.md).
if Context.environment["QUAKE_BAKE_FUZZ"] != nil {
    package.targets += [
        .target(name: "FuzzSupport", dependencies: ["QuakeCatalog", "QuakeCommon"], path: "Fuzz/Support"),
        .executableTarget(name: "fuzz-geojson", dependencies: ["FuzzSupport"], path: "Fuzz/geojson"),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzSupport"], path: "Fuzz/csv"),
        .executableTarget(name: "fuzz-configuration", dependencies: ["QuakeOperations", "QuakeCommon"], path: "Fuzz/configuration"),
        .executableTarget(name: "fuzz-style", dependencies: ["QuakeBundles", "QuakeCommon"], path: "Fuzz/style"),
    ]
}

// The modules that do the pipeline's heavy work are compiled optimised in debug builds too: the
// tests run its stages thousands of times (the replay alone bakes 124 times), and unoptimised
// Swift (generic code through witness tables, every retain and release) made the replay's bakes
// take twice the CPU of a release build's, and most of the suite's time went there
// (BENCHMARKS.md, "test loop"). The stand-in serves every fetch of the tests, so it is optimised
// too. The modules that mostly wait on the network and the disk (fetch, HTTP, publish, serve,
// operations, the command line) keep SwiftPM's `-Onone`: optimising them cost 73 s of a fresh
// build's CPU and saved the tests about 10 s. QuakeBundleKit, the library apps add, and
// QuakeBundleFormat, part of it, are optimised only when this package is built by its own scripts
// (Scripts/lib/debug-build.sh sets QUAKE_BAKE_OPTIMISE_APP_LIBRARY): a product with unsafe flags
// cannot be a dependency, so an app's build, which never sets it, gets SwiftPM's defaults.
// Unoptimised, its SHA-256 alone was 18 % of the CPU of the tests' `quake-bake` runs.
var optimisedInDebug: Set<String> = [
    "QuakeCommon", "QuakeSQLite", "QuakeCatalog", "QuakeStore", "QuakeTiles", "QuakeBundles",
    "USGSStandIn", "usgs-stand-in", "QuakeSynthetic",
]
if Context.environment["QUAKE_BAKE_OPTIMISE_APP_LIBRARY"] != nil {
    optimisedInDebug.formUnion(["QuakeBundleKit", "QuakeBundleFormat"])
}
for target in package.targets where optimisedInDebug.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
}
