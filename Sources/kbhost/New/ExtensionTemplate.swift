/// The files `kbhost new NAME` writes: a standalone package with one extension, its test, and a README
/// with the commands that build, test, bundle and type through it. `samples/ExternalKeyboard` is this
/// template's output (CI checks they are the same), built and loaded in CI.
struct ExtensionTemplate {
    let name: String
    let identifier: String
    /// The KeyboardHost package, as the new package's Package.swift names it.
    let sdkPath: String

    var files: [(path: String, contents: String)] {
        [
            ("Package.swift", packageSwift),
            ("Sources/\(name)/\(name).swift", controller),
            ("Tests/\(name)Tests/\(name)Tests.swift", test),
            ("README.md", readme),
            (".gitignore", ".build/\nPackage.resolved\nbundles/\n"),
        ]
    }

    private var packageSwift: String {
        """
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: "\(name)",
            platforms: [.macOS(.v15)],
            products: [
                // The extension: a shared library kbhost loads (lib\(name).so).
                .library(name: "\(name)", type: .dynamic, targets: ["\(name)"]),
            ],
            dependencies: [
                // The KeyboardHost SDK: KeyboardExtension to write the keyboard, KeyboardTesting to test
                // it, and the package-extension plugin to bundle it.
                .package(name: "KeyboardHost", path: "\(sdkPath)"),
            ],
            targets: [
                .target(name: "\(name)", dependencies: [.product(name: "KeyboardExtension", package: "KeyboardHost")]),
                .testTarget(
                    name: "\(name)Tests",
                    dependencies: ["\(name)", .product(name: "KeyboardTesting", package: "KeyboardHost")]
                ),
            ]
        )

        """
    }

    private var controller: String {
        """
        import KeyboardExtension

        /// \(name): letters, a numbers page, shift, delete, space and return. The keys do what
        /// `KeyboardViewController.keyTapped(_:)` does by default; override it to do more.
        final class \(name): KeyboardViewController {
            override func createConfiguration() -> KeyboardConfiguration {
                KeyboardConfiguration(
                    // Unlicensed: load it with `kbhost --allow-unlicensed`, or issue a license
                    // (`kbhost license issue`) and return it here or hand it with `--license`.
                    license: nil,
                    layout: .qwerty,
                    typing: TypingOptions(autocapitalization: true)
                )
            }
        }

        @_cdecl("kbx_extension_entry")
        public func kbxExtensionEntry() -> UnsafeRawPointer? {
            \(name).export(id: "\(identifier)", name: "\(name)", version: "1.0.0")
        }

        """
    }

    private var test: String {
        """
        import KeyboardTesting
        import Testing
        @testable import \(name)

        @MainActor
        @Suite struct \(name)Tests {
            @Test func typesThroughItsKeys() async throws {
                let host = try KeyboardTestHost(\(name).self, document: "Say: ")
                try host.show()
                try await host.type("hello, World 42")
                #expect(host.document == "Say: hello, World 42")
                #expect(host.cursor == 20)
            }

            @Test func capitalizesTheStartOfASentence() async throws {
                let host = try KeyboardTestHost(\(name).self)
                try host.show()
                #expect(host.session.keyboardState.shift == .on)
                try host.tap("h")
                try host.tap("i")
                await host.settle()
                #expect(host.document == "Hi")
            }
        }

        """
    }

    private var readme: String {
        """
        # \(name)

        A keyboard extension for KeyboardHost, made by `kbhost new \(name)`.

        ```sh
        swift test                                                       # its tests, in process
        swift build && kbhost --allow-unlicensed .build/debug/lib\(name).so   # type through it
        swift package --allow-writing-to-package-directory package-extension --product \(name)
        kbhost --allow-unlicensed bundles/\(identifier).kbx             # the bundle
        ```

        `package-extension` builds it in release and writes `bundles/\(identifier).kbx/`: the `.so`,
        `manifest.json` (id, name, version, ABI version, SHA-256), and `--layout`/`--license` files if
        given; `--install` puts it where `kbhost \(identifier)` finds it.

        """
    }
}
