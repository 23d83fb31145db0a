import Foundation
import Testing
import TestSupport

/// Bundles as an author makes them and a user installs and loads them; `kbhost new`'s package.
@Suite("kbhost: bundles, list, new")
struct BundleCommandTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-bundles-\(UUID())")

    private func kbhost(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Command.Result {
        try Command.run(try BuildProducts.kbhost(), arguments, input: input, environment: environment)
    }

    private var hello: String { get throws { try BuildProducts.sample("HelloKeyboard") } }
    private var data: String { folder.appendingPathComponent("data").path }
    private var installed: String { data + "/bundles" }
    private var helloBundle: String { installed + "/dev.kbhost.samples.hello.kbx" }

    private func document(_ result: Command.Result) throws -> String? {
        (try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])?["document"] as? String
    }

    /// HelloKeyboard bundled with a layout of two keys, x and #, installed in the test's data folder.
    private func install() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let layout = folder.appendingPathComponent("xhash.json")
        try Data(##"{"subKeyboards": [{"mode": "letters", "rows": [[{"code": "input", "label": "x"}, {"code": "input", "label": "#"}]]}]}"##.utf8)
            .write(to: layout)
        let made = try kbhost(["bundle", try hello, "--layout", layout.path, "--out", installed])
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput == helloBundle + "\n")
    }

    @Test func aBundleCarriesTheLibraryAManifestAndItsLayout() throws {
        try install()
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: helloBundle + "/manifest.json"))) as? [String: Any]
        #expect(manifest?["identifier"] as? String == "dev.kbhost.samples.hello")
        #expect(manifest?["name"] as? String == "Hello Keyboard")
        #expect(manifest?["version"] as? String == "1.0.0")
        #expect(manifest?["abiVersion"] as? Int == 1)
        #expect(manifest?["library"] as? String == "libHelloKeyboard.so")
        #expect(manifest?["layout"] as? String == "layout.json")
        #expect((manifest?["sha256"] as? String)?.count == 64)

        let listed = try kbhost(["list", "--data-dir", data])
        #expect(listed.status == 0)
        #expect(listed.standardOutput == "dev.kbhost.samples.hello  Hello Keyboard 1.0.0  \(helloBundle)\n")
        // Loaded by id and by folder, with the bundle's layout ('#' is on it, not on HelloKeyboard's).
        let byID = try kbhost(["run", "--data-dir", data, "dev.kbhost.samples.hello", "--type", "x#"])
        #expect(byID.status == 0, "\(byID.standardError)")
        #expect(try document(byID) == "x#")
        let byFolder = try kbhost(["run", helloBundle, "--type", "#x"])
        #expect(try document(byFolder) == "#x")
        let piped = try kbhost(["--data-dir", data, "dev.kbhost.samples.hello"], input: "x#x\n")
        #expect(piped.standardOutput == "x#x\n")
    }

    /// `list` says usable only of what `kbhost <id>` would activate: a bundle whose license this
    /// host does not trust (from a folder without the repository's kbhost.json) is unusable, with
    /// the reason and what to do, until its issuer is trusted.
    @Test func listChecksWhatActivationChecks() throws {
        try install()
        let kbhost = try BuildProducts.kbhost()
        let elsewhere = try Command.run("/bin/sh", ["-c", "cd /tmp && exec \"$0\" list --data-dir \"$1\"", kbhost, data])
        #expect(elsewhere.status == 1)
        #expect(elsewhere.standardOutput == "unusable  \(helloBundle): Hello Keyboard cannot be activated: license issued by 'Sample Issuer' (key 8a9cbda9adc50444), which this host does not trust; trust the issuer with --trust PUBLIC-KEY-FILE (or \"trustedIssuers\" in ./kbhost.json; the repository's own trusts its samples' issuer), or load it with --allow-unlicensed while developing\n")
        let publicKey = BuildProducts.packageRoot.appendingPathComponent("samples/SampleIssuer/sample-issuer.public.json").path
        let trusted = try Command.run("/bin/sh", ["-c", "cd /tmp && exec \"$0\" list --data-dir \"$1\" --trust \"$2\"", kbhost, data, publicKey])
        #expect(trusted.status == 0, "\(trusted.standardError)")
        #expect(trusted.standardOutput == "dev.kbhost.samples.hello  Hello Keyboard 1.0.0  \(helloBundle)\n")
    }

    @Test func aChangedLibraryOrManifestIsRefusedWithTheReason() throws {
        try install()
        let manifestURL = URL(fileURLWithPath: helloBundle + "/manifest.json")
        let original = try Data(contentsOf: manifestURL)
        var manifest = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])

        manifest["colour"] = "red"
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let unknown = try kbhost(["list", "--data-dir", data])
        #expect(unknown.status == 1)
        #expect(unknown.standardOutput.hasPrefix("unusable  \(helloBundle): manifest.json: colour: unknown key (expected formatVersion, identifier"))

        manifest["colour"] = nil
        manifest["version"] = "2.0.0"
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        let version = try kbhost(["run", "--data-dir", data, helloBundle])
        #expect(version.status == 69)
        #expect(version.standardError == "kbhost: error: bundle '\(helloBundle)': the manifest's version is '2.0.0', but the library's is '1.0.0'\n")

        try original.write(to: manifestURL)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: helloBundle + "/libHelloKeyboard.so"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("tampered".utf8))
        try handle.close()
        let tampered = try kbhost(["list", "--data-dir", data, "--json"])
        #expect(tampered.status == 1)
        #expect(tampered.standardOutput.contains("but the manifest says"))
        let byID = try kbhost(["run", "--data-dir", data, "dev.kbhost.samples.hello"])
        #expect(byID.status == 69)
        // Found by its manifest, and refused with the reason rather than "not installed".
        #expect(byID.standardError.hasPrefix("kbhost: error: bundle '\(helloBundle)': libHelloKeyboard.so has SHA-256 "))
        let missing = try kbhost(["run", "--data-dir", data, "dev.kbhost.samples.missing"])
        #expect(missing.status == 69)
        #expect(missing.standardError.hasPrefix("kbhost: error: no bundle 'dev.kbhost.samples.missing' installed"))
    }

    @Test func theConfigurationNamesBundleFolders() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try kbhost(["bundle", try hello, "--out", folder.appendingPathComponent("team-bundles").path])
        #expect(made.status == 0, "\(made.standardError)")
        let config = folder.appendingPathComponent("kbhost.json")
        let publicKey = BuildProducts.packageRoot.appendingPathComponent("samples/SampleIssuer/sample-issuer.public.json").path
        try Data(#"{"bundles": ["team-bundles"], "trustedIssuers": ["\#(publicKey)"]}"#.utf8).write(to: config)
        let listed = try kbhost(["list", "--config", config.path, "--data-dir", data])
        #expect(listed.standardOutput.hasPrefix("dev.kbhost.samples.hello  Hello Keyboard 1.0.0  \(folder.path)/team-bundles/"))
        let piped = try kbhost(["--config", config.path, "--data-dir", data, "dev.kbhost.samples.hello"], input: "hi\n")
        #expect(piped.standardOutput == "hi\n")
    }

    @Test func anInstalledBundleIsFoundByItsManifestWhateverItsFolderIsCalled() throws {
        try install()
        try FileManager.default.moveItem(atPath: helloBundle, toPath: installed + "/hello-copy.kbx")
        let byID = try kbhost(["run", "--data-dir", data, "dev.kbhost.samples.hello", "--type", "x#"])
        #expect(byID.status == 0, "\(byID.standardError)")
        #expect(try document(byID) == "x#")
    }

    @Test func bundleInstallsIntoTheUsersDataFolderWhereKbhostFindsIt() throws {
        // No --out, no --data-dir: $XDG_DATA_HOME/kbhost/bundles, as the plugin's --install uses.
        let xdg = ["XDG_DATA_HOME": folder.appendingPathComponent("xdg").path]
        let made = try kbhost(["bundle", try hello], environment: xdg)
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput == folder.path + "/xdg/kbhost/bundles/dev.kbhost.samples.hello.kbx\n")
        let listed = try kbhost(["list"], environment: xdg)
        #expect(listed.standardOutput.hasPrefix("dev.kbhost.samples.hello  Hello Keyboard 1.0.0  \(folder.path)/xdg/kbhost/bundles/"))
        let piped = try kbhost(["dev.kbhost.samples.hello"], input: "ok\n", environment: xdg)
        #expect(piped.standardOutput == "ok\n")
        // Its storage goes under the same root.
        #expect(FileManager.default.fileExists(atPath: folder.path + "/xdg/kbhost/extensions/dev.kbhost.samples.hello"))
    }

    @Test func nothingInstalledIsSaid() throws {
        let listed = try kbhost(["list", "--data-dir", data])
        #expect(listed.status == 0)
        #expect(listed.standardOutput == "no bundles in \(installed)\n")
    }

    @Test func newWritesThePackageSamplesExternalKeyboardIs() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try kbhost(["new", "ExternalKeyboard", "--sdk", "../..", "--output", folder.path, "--id", "dev.kbhost.samples.external"])
        #expect(made.status == 0, "\(made.standardError)")
        // It says what to do next, each step a command.
        for step in ["1. cd ", "&& swift test", "2. swift build && kbhost --allow-unlicensed .build/debug/libExternalKeyboard.so",
                     "3. edit Sources/ExternalKeyboard/ExternalKeyboard.swift", "4. swift package --allow-writing-to-package-directory package-extension --product ExternalKeyboard"] {
            #expect(made.standardOutput.contains(step), "\(step)")
        }
        let sample = BuildProducts.packageRoot.appendingPathComponent("samples/ExternalKeyboard")
        for file in ["Package.swift", "Sources/ExternalKeyboard/ExternalKeyboard.swift", "Tests/ExternalKeyboardTests/ExternalKeyboardTests.swift",
                     "README.md", ".gitignore"] {
            let written = try String(contentsOf: folder.appendingPathComponent("ExternalKeyboard/" + file), encoding: .utf8)
            let committed = try String(contentsOf: sample.appendingPathComponent(file), encoding: .utf8)
            #expect(written == committed, "\(file) differs from the template's")
        }
        let again = try kbhost(["new", "ExternalKeyboard", "--output", folder.path])
        #expect(again.status == 64)
        #expect(again.standardError.contains("exists already"))
        // Without --sdk: the checkout this kbhost was built from.
        let byDefault = try kbhost(["new", "PlainKeyboard", "--output", folder.path])
        #expect(byDefault.status == 0, "\(byDefault.standardError)")
        let package = try String(contentsOf: folder.appendingPathComponent("PlainKeyboard/Package.swift"), encoding: .utf8)
        #expect(package.contains(#".package(name: "KeyboardHost", path: "\#(BuildProducts.packageRoot.path)")"#))
        #expect(package.contains(#".library(name: "PlainKeyboard", type: .dynamic, targets: ["PlainKeyboard"])"#))
        let badName = try kbhost(["new", "9Lives"])
        #expect(badName.status == 64)
        #expect(badName.standardError.contains("'9Lives' is not a Swift type name"))
    }

    /// The bundle CI builds from samples/ExternalKeyboard with the plugin (`.ci/run` sets the variable).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["KBHOST_EXTERNAL_BUNDLE"] != nil))
    func theExternalSampleBuiltWithThePluginLoads() throws {
        let bundle = try #require(ProcessInfo.processInfo.environment["KBHOST_EXTERNAL_BUNDLE"])
        let manifest = try String(contentsOfFile: bundle + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains(#""identifier" : "dev.kbhost.samples.external""#))
        let run = try kbhost(["run", "--allow-unlicensed", bundle, "--type", "hello. World 42"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try document(run) == "hello. World 42")
        // It has no license (the template's keyboard): list says so, as loading it would, unless
        // licenses are not checked.
        let folder = URL(fileURLWithPath: bundle).deletingLastPathComponent().path
        let listed = try kbhost(["list", "--bundles", folder, "--data-dir", data])
        #expect(listed.standardOutput.contains("unusable  \(bundle): ExternalKeyboard cannot be activated: no license"))
        let unchecked = try kbhost(["list", "--bundles", folder, "--data-dir", data, "--allow-unlicensed"])
        #expect(unchecked.standardOutput.contains("dev.kbhost.samples.external  ExternalKeyboard 1.0.0"))
    }
}
