// swift-tools-version: 6.1
//
// KeyboardHost: host keyboard extensions (shared libraries) on Linux.
// The only contract between host and extension is the C header in Sources/KeyboardExtensionABI;
// see docs/Architecture.md and README.md.
import PackageDescription

import class Foundation.ProcessInfo

let package = Package(
    name: "KeyboardHost",
    platforms: [.macOS(.v15)],
    products: [
        // For extension authors: the SDK (KeyboardViewController, TextDocumentProxy, configuration).
        .library(name: "KeyboardExtension", targets: ["KeyboardExtension"]),
        // For extension authors' tests: host an extension in process, act as the user, control time.
        .library(name: "KeyboardTesting", targets: ["KeyboardTesting"]),
        // For hosts: load extensions, own the text field, serve the proxy.
        .library(name: "KeyboardHost", targets: ["KeyboardHost"]),
        // The command-line tool.
        .executable(name: "kbhost", targets: ["kbhost"]),
        // `swift package package-extension --product NAME`: a release build bundled for installing.
        .plugin(name: "PackageExtension", targets: ["PackageExtension"]),
        // Samples: each one a loadable extension, built as a shared library (lib<Name>.so).
        .library(name: "HelloKeyboard", type: .dynamic, targets: ["HelloKeyboard"]),
        .library(name: "QwertyKeyboard", type: .dynamic, targets: ["QwertyKeyboard"]),
        .library(name: "SecurePasscodeKeyboard", type: .dynamic, targets: ["SecurePasscodeKeyboard"]),
        // A test fixture, not a sample: a Swift keyboard that crashes and hangs on given keys, for the
        // isolation tests (a library the tests load must be a product to be built as one).
        .library(name: "FaultyKeyboard", type: .dynamic, targets: ["FaultyKeyboard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // BigString: the text field's document, a rope that counts Characters, so edits and cursor
        // moves cost O(log n + edit), not O(document).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Ed25519 licenses; SHA-256 of bundled libraries and of large texts in kbhost's output.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // `swift package generate-documentation --target KeyboardExtension`: the SDK's DocC.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The C ABI: one header, the spec. No Swift crosses the boundary.
        .target(name: "KeyboardExtensionABI"),
        // Value types both sides describe in the same words (configuration, layouts). Each side links
        // its own copy; only their JSON form crosses the boundary.
        .target(name: "KeyboardModel"),
        .target(name: "KeyboardExtension", dependencies: ["KeyboardExtensionABI", "KeyboardModel"]),
        // Below the host's executors: a thread-local note of whose work runs, and the constructor that
        // installs the executors before main (Sources/KeyboardHost/Loop/HostExecutors.swift).
        .target(name: "CHostRuntime"),
        .target(
            name: "KeyboardHost",
            dependencies: [
                "KeyboardExtensionABI", "KeyboardModel", "CHostRuntime",
                .product(name: "_RopeModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "KeyboardTesting",
            dependencies: ["KeyboardHost", "KeyboardExtension", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .executableTarget(
            name: "kbhost",
            dependencies: [
                "KeyboardHost", "CReadline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // scripts/bench: the whole picture of the host's speed and memory (walks, taps, loading,
        // start-up, memory), as tables and JSON, from a release build.
        .executableTarget(
            name: "kbhost-bench",
            dependencies: [
                "BenchmarkSupport", "KeyboardTesting", "KeyboardExtension", "KeyboardHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/KeyboardHostBench"
        ),
        // What every benchmark types into and reads (kbhost-bench's and the ordo-one suite's).
        .target(name: "BenchmarkSupport", dependencies: ["KeyboardExtension"], path: "Benchmarks/BenchmarkSupport"),
        .plugin(
            name: "PackageExtension",
            capability: .command(
                intent: .custom(verb: "package-extension", description: "Build an extension in release and write an installable bundle"),
                permissions: [.writeToPackageDirectory(reason: "to write the bundle into bundles/")]
            )
            // No dependency on kbhost: SwiftPM would build it (the whole SDK again) before every run.
            // The plugin finds one already built, and builds it only if there is none.
        ),
        // GNU readline (GPL-3.0-or-later; only kbhost links it) and a shim for its C globals.
        .target(name: "CReadline", linkerSettings: [.linkedLibrary("readline")]),
        .target(name: "HelloKeyboard", dependencies: ["KeyboardExtension"], path: "samples/HelloKeyboard"),
        .target(name: "QwertyKeyboard", dependencies: ["KeyboardExtension"], path: "samples/QwertyKeyboard", exclude: ["README.md"]),
        // scrypt (swift-crypto's CryptoExtras) for the passcodes' hashes.
        .target(
            name: "SecurePasscodeKeyboard",
            dependencies: [
                "KeyboardExtension",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "samples/SecurePasscodeKeyboard", exclude: ["README.md"]
        ),

        .target(name: "FaultyKeyboard", dependencies: ["KeyboardExtension"], path: "Tests/Fixtures/FaultyKeyboard"),

        // Helpers our own tests share: where the built products are, the C fixture, running commands.
        .target(
            name: "TestSupport",
            dependencies: ["KeyboardHost"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "KeyboardHostTests",
            dependencies: [
                "KeyboardHost", "KeyboardExtension", "KeyboardTesting", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "KeyboardTestingTests",
            dependencies: [
                "KeyboardTesting", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "kbhostTests", dependencies: ["TestSupport"]),
        // The samples, through the testing module and (for the passcode's rules and store) directly.
        .testTarget(name: "SamplesTests", dependencies: ["KeyboardTesting", "SecurePasscodeKeyboard", "TestSupport"]),
    ]
)

// Benchmarks (ordo-one/benchmark) join the package only when asked for, so that `swift build` and
// `swift test` (and CI) do not build the benchmark harness:
//   KBHOST_BENCHMARKS=1 swift package benchmark
if ProcessInfo.processInfo.environment["KBHOST_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    )
    package.targets.append(
        .executableTarget(
            name: "KeyboardHostBenchmarks",
            dependencies: ["BenchmarkSupport", "KeyboardTesting", "KeyboardExtension", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/KeyboardHostBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    )
}

// Fuzz targets (libFuzzer) join the package only when asked for, built with the fuzzer and
// AddressSanitizer: `scripts/fuzz` does it (KBHOST_FUZZ=1, a scratch path of their own).
if ProcessInfo.processInfo.environment["KBHOST_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(name: "KeyboardHostFuzz", dependencies: ["KeyboardHost"], path: "Fuzz/KeyboardHostFuzz")
    )
}
