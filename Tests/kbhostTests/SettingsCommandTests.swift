import Foundation
import Testing
import TestSupport

/// What the user chooses for an extension — in `kbhost.json`'s `extensions` and with `--license`,
/// `--layout` and `--set` — reaches the extension, a built `.so`, and changes what it does.
@Suite("kbhost: settings for extensions")
struct SettingsCommandTests {
    private let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("settings")
    }

    private func kbhost(_ arguments: [String], input: String? = nil) throws -> Command.Result {
        try Command.run(try BuildProducts.kbhost(), arguments, input: input)
    }

    private var hello: String { get throws { try BuildProducts.sample("HelloKeyboard") } }
    private var sampleIssuer: String {
        BuildProducts.packageRoot.appendingPathComponent("samples/SampleIssuer/sample-issuer.public.json").path
    }

    private func document(_ result: Command.Result) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return object?["document"] as? String ?? "<none in \(result.standardOutput)>"
    }

    /// A configuration in the test's folder trusting the sample issuer, with `extensions`.
    private func configuration(_ extensions: String) throws -> String {
        let file = folder.appendingPathComponent("kbhost.json")
        try Data(#"{"trustedIssuers": ["\#(sampleIssuer)"], "extensions": \#(extensions)}"#.utf8).write(to: file)
        return file.path
    }

    @Test func setFlagsReachTheExtension() throws {
        let result = try kbhost([
            "run", try hello, "--set", "typing.autocorrection=true", "--set", #"typing.textReplacements={"hw": "hello world"}"#,
            "--type", "hw hw",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try document(result) == "hello world hw")
    }

    @Test func aLayoutChosenInTheConfigurationReplacesTheExtensionsOwn() throws {
        // HelloKeyboard has no '#'; the built-in QWERTY's symbols page has.
        let plain = try kbhost(["run", try hello, "--type", "a#"])
        #expect(plain.status == 64)
        #expect(plain.standardError.contains("no key"))
        let config = try configuration(#"[{"path": "\#(try hello)", "layout": "qwerty"}]"#)
        let chosen = try kbhost(["run", "--config", config, try hello, "--type", "a#"])
        #expect(chosen.status == 0, "\(chosen.standardError)")
        #expect(try document(chosen) == "a#")
        // The same by identifier, and with the flag.
        let byID = try configuration(#"[{"id": "dev.kbhost.samples.hello", "layout": "qwerty"}]"#)
        #expect(try document(try kbhost(["run", "--config", byID, try hello, "--type", "a#"])) == "a#")
        #expect(try document(try kbhost(["run", try hello, "--layout", "qwerty", "--type", "a#"])) == "a#")
    }

    @Test func aLayoutFileFromTheFlag() throws {
        let layout = folder.appendingPathComponent("xy.json")
        try Data(#"{"subKeyboards": [{"mode": "letters", "rows": [[{"code": "input", "label": "x"}, {"code": "input", "label": "y"}]]}]}"#.utf8)
            .write(to: layout)
        let typed = try kbhost(["run", try hello, "--layout", layout.path, "--type", "yxy"])
        #expect(typed.status == 0, "\(typed.standardError)")
        #expect(try document(typed) == "yxy")
        let missing = try kbhost(["run", try hello, "--layout", layout.path, "--type", "a"])
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("has no key that types \"a\""), "\(missing.standardError)")
    }

    @Test func aLicenseFromTheSettingsIsChecked() throws {
        // A license the sample issuer signed for another extension, given in place of HelloKeyboard's own.
        let privateKey = BuildProducts.packageRoot.appendingPathComponent("samples/SampleIssuer/sample-issuer.private.json").path
        let issued = try kbhost([
            "license", "issue", "--key", privateKey, "--extension", "com.example.other", "--licensee", "Tests", "--expires", "2099-12-31",
        ])
        #expect(issued.status == 0, "\(issued.standardError)")
        let license = folder.appendingPathComponent("other.license.json")
        try Data(issued.standardOutput.utf8).write(to: license)
        let config = try configuration(#"[{"path": "\#(try hello)", "license": "other.license.json"}]"#)
        let refused = try kbhost(["run", "--config", config, try hello, "--type", "a"])
        #expect(refused.status == 69)
        #expect(refused.standardError.contains("Hello Keyboard cannot be activated"), "\(refused.standardError)")
        #expect(refused.standardError.contains("com.example.other"), "\(refused.standardError)")
        let flag = try kbhost(["run", "--config", config, "--license", license.path, try hello, "--type", "a"])
        #expect(flag.status == 69)
    }

    @Test func badFlagsAreOneLineNamingTheFlag() throws {
        let layout = try kbhost(["run", try hello, "--layout", "azerty"])
        #expect(layout.status == 64)
        #expect(layout.standardError == "kbhost: error: --layout: no built-in layout 'azerty' (expected numericPad, qwerty or a .json file)\n")
        let set = try kbhost(["run", try hello, "--set", "typing.autocaps=true"])
        #expect(set.status == 64)
        #expect(set.standardError.hasPrefix("kbhost: error: --set 'typing.autocaps=true': autocaps: unknown key"))
        let license = try kbhost(["run", try hello, "--license", "/nonexistent.json"])
        #expect(license.status == 64)
        #expect(license.standardError == "kbhost: error: --license: license '/nonexistent.json': no such file\n")
    }

    @Test func theReplLoadsTheConfiguredExtensionsWhenNoneIsNamed() throws {
        let config = try configuration(#"[{"path": "\#(try hello)", "typing": {"autocorrection": true, "textReplacements": {"hw": "hello world"}}}]"#)
        let result = try kbhost(["--config", config], input: "hwx\nok hw\nhw\n")
        #expect(result.status == 0, "\(result.standardError)")
        // The return key ends a word too, as on iOS.
        #expect(result.standardOutput == "hwx\nok hello world\nhello world\n")
        let none = try kbhost(["--config", try configuration("[]")], input: "x\n")
        #expect(none.status == 64)
        #expect(none.standardError.contains("give at least one extension to load"))
    }
}
