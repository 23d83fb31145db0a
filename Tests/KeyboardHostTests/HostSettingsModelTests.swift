import Foundation
import KeyboardHost
import PropertyBased
import Testing

@Suite("Settings: --set, merging, the configuration's extensions")
struct HostSettingsModelTests {
    @Test func assignmentsReadJSONOrAString() throws {
        let flags = try SettingAssignment.settings([
            SettingAssignment("typing.autocapitalization=true"),
            SettingAssignment("typing.keyFeedback.sound=true"),
            SettingAssignment("appearance.theme=light"),
            SettingAssignment("options.language=fr"),
            SettingAssignment("options.rows=3"),
            SettingAssignment("options.labels={\"a\": \"α\"}"),
            SettingAssignment("environment.fullAccess=true"),
            SettingAssignment("environment.primaryLanguage=fr-CA"),
            SettingAssignment("environment.lexicon=[{\"userInput\": \"omw\", \"documentText\": \"On my way!\"}]"),
        ])
        #expect(flags.environment == KeyboardEnvironment(
            fullAccess: true, primaryLanguage: "fr-CA", lexicon: [LexiconEntry(userInput: "omw", documentText: "On my way!")]
        ))
        #expect(flags.typing == .object(["autocapitalization": .bool(true), "keyFeedback": .object(["sound": .bool(true)])]))
        #expect(flags.appearance == .object(["theme": .string("light")]))
        #expect(flags.options == ["language": .string("fr"), "rows": .number(3), "labels": .object(["a": .string("α")])])
    }

    @Test(arguments: [
        ("typing", "--set 'typing': expected section.field=value"),
        ("colour.x=1", "--set 'colour.x=1': unknown section 'colour' (expected typing, appearance, options, environment)"),
        ("typing.=1", "--set 'typing.=1': expected a field after 'typing.'"),
        ("typing.autocaps=true", "--set 'typing.autocaps=true': autocaps: unknown key (expected autocapitalization, autocorrection, textReplacements, doubleSpacePeriod, keyFeedback)"),
        ("typing.autocapitalization=yes", "--set 'typing.autocapitalization=\"yes\"': autocapitalization: expected true or false"),
        ("appearance.theme=pink", "--set 'appearance.theme=\"pink\"': theme: unknown theme 'pink' (expected dark, light, plain)"),
        ("environment.fullAcess=true", "--set 'environment.fullAcess=true': fullAcess: unknown key (expected fullAccess, primaryLanguage, dictation, needsInputModeSwitchKey, inputModes, lexicon)"),
        ("environment.primaryLanguage=French", "--set 'environment.primaryLanguage=\"French\"': primaryLanguage: 'French' is not a BCP 47 language tag such as en-US or fr"),
    ])
    func badAssignmentsSayWhatWasWrong(text: String, message: String) {
        do {
            _ = try SettingAssignment.settings([try SettingAssignment(text)])
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aKeyWithALineBreakOrAnEscapeIsShownEscapedOnOneLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-escape-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kbhost.json")
        try Data(#"{"exte\nsions\u001b[2J": []}"#.utf8).write(to: config)
        #expect(throws: HostConfigurationError.self) { try HostConfiguration.read(config.path) }
        do {
            _ = try HostConfiguration.read(config.path)
        } catch {
            #expect(error.description.hasSuffix(#": exte\nsions\u{1B}[2J: unknown key (expected trustedIssuers, allowUnlicensed, extensions, bundles)"#))
            #expect(!error.description.contains("\n") && !error.description.contains("\u{1B}"))
        }
    }

    @Test func flagsLieOverTheFilesSettings() {
        let file = HostSettings(
            license: LicenseConfiguration(licenseKey: "file", licenseSecret: "s"), layout: .numericPad,
            typing: .object(["autocorrection": .bool(true), "keyFeedback": .object(["sound": .bool(true)])]),
            options: ["a": .number(1), "b": .number(2)]
        )
        let flags = HostSettings(layout: .qwerty, typing: .object(["keyFeedback": .object(["highlight": .bool(false)])]), options: ["b": .number(3)])
        let both = file.overlaid(with: flags)
        #expect(both.license == file.license)
        #expect(both.layout == .qwerty)
        #expect(both.typing == .object(["autocorrection": .bool(true), "keyFeedback": .object(["sound": .bool(true), "highlight": .bool(false)])]))
        #expect(both.options == ["a": .number(1), "b": .number(3)])
    }

    @Test func settingsCrossTheBoundaryAsJSONAndUnknownKeysAreRefused() throws {
        let settings = HostSettings(layout: .qwerty, typing: .object(["doubleSpacePeriod": .bool(true)]), options: ["x": .null])
        let decoded = try JSONDecoder().decode(HostSettings.self, from: JSONEncoder().encode(settings))
        #expect(decoded == settings)
        #expect(try JSONDecoder().decode(HostSettings.self, from: Data("{}".utf8)) == .none)
        for (json, problem) in [
            (#"{"layouts": 1}"#, "layouts: unknown key (expected license, layout, typing, appearance, options, storage, environment)"),
            (#"{"typing": {"sound": true}}"#, "typing: sound: unknown key"),
            (#"{"appearance": {"theme": 3}}"#, "appearance: theme: expected a string"),
        ] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(HostSettings.self, from: Data(json.utf8)) }
            do {
                _ = try JSONDecoder().decode(HostSettings.self, from: Data(json.utf8))
            } catch {
                #expect(DecodingProblem(error).description.hasPrefix(problem), "\(DecodingProblem(error))")
            }
        }
    }

    @Test func theConfigurationListsExtensionsWithTheirSettings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-settings-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try KeyboardLayout.numericPad.json().write(to: folder.appendingPathComponent("pad.json"))
        try Data(#"{"licenseKey": "k", "licenseSecret": "s"}"#.utf8).write(to: folder.appendingPathComponent("my.license.json"))
        let config = folder.appendingPathComponent("kbhost.json")
        try Data("""
            {"extensions": [
              {"path": "lib/libA.so", "layout": "pad.json", "license": "my.license.json", "typing": {"autocapitalization": true}},
              {"id": "com.example.b", "layout": "qwerty", "options": {"language": "fr"}}
            ]}
            """.utf8).write(to: config)
        let configuration = try HostConfiguration.read(config.path)
        #expect(configuration.extensions.count == 2)
        let first = configuration.extensions[0]
        #expect(first.path == folder.appendingPathComponent("lib/libA.so").standardized.path)
        #expect(first.settings.layout == .numericPad)
        #expect(first.settings.license == LicenseConfiguration(licenseKey: "k", licenseSecret: "s"))
        #expect(first.settings.typing == .object(["autocapitalization": .bool(true)]))
        #expect(configuration.extensions[1].identifier == "com.example.b")
        #expect(configuration.extensions[1].settings.layout == .qwerty)
        #expect(configuration.extensions[1].settings.options == ["language": .string("fr")])
    }

    @Test func errorsInTheExtensionsNameTheFileTheEntryAndTheField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-settings-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"subKeyboards": [{"mode": "letters", "rows": [[{"code": "input", "label": "a", "width": -1}]]}]}"#.utf8)
            .write(to: folder.appendingPathComponent("bad.json"))
        let config = folder.appendingPathComponent("kbhost.json")
        for (json, problem) in [
            (#"{"extensions": [{}]}"#, "extensions[0]: expected a path or an id"),
            (#"{"extensions": [{"path": "a.so", "colour": 1}]}"#, "extensions[0].colour: unknown key (expected path, id, license, layout, typing, appearance, options, environment)"),
            (#"{"extensions": [{"path": "a.so", "layout": "azerty"}]}"#, "extensions[0].layout: no built-in layout 'azerty' (expected numericPad, qwerty or a .json file)"),
            (#"{"extensions": [{"path": "a.so"}, {"id": "b", "layout": "bad.json"}]}"#,
             "extensions[1].layout: layout '\(folder.path)/bad.json': subKeyboards[0].rows[0][0].width: expected a number above 0"),
            (#"{"extensions": [{"path": "a.so", "license": "none.json"}]}"#, "extensions[0].license: license '\(folder.path)/none.json': no such file"),
            (#"{"extensions": [{"path": "a.so", "typing": {"autocapitalization": "yes"}}]}"#, "extensions[0].typing: autocapitalization: expected true or false"),
        ] {
            try Data(json.utf8).write(to: config)
            #expect(throws: HostConfigurationError.invalid(path: config.path, problem: problem), "\(json)") {
                try HostConfiguration.read(config.path)
            }
        }
    }

    @Test func theDataFolderFollowsXDG() {
        #expect(ExtensionStorage.defaultRoot(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/jo"]) == "/x/data/kbhost")
        // A relative XDG_DATA_HOME is invalid by the spec and ignored.
        #expect(ExtensionStorage.defaultRoot(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/jo"]) == "/home/jo/.local/share/kbhost")
        #expect(BundleDirectory.defaultDirectory(environment: ["HOME": "/home/jo"]) == "/home/jo/.local/share/kbhost/bundles")
    }

    @Test func jsonValuesMergeObjectsAndReplaceTheRest() {
        let base = JSONValue.object(["a": .object(["x": .number(1), "y": .number(2)]), "b": .array([.null])])
        #expect(base.merging(.object(["a": .object(["y": .bool(true)]), "c": .string("s")]))
            == .object(["a": .object(["x": .number(1), "y": .bool(true)]), "b": .array([.null]), "c": .string("s")]))
        #expect(base.merging(.number(3)) == .number(3))
    }

    @Test func mutatedConfigurationsReadOrFailWithTheirFileNamedNeverFatal() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-fuzz-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kbhost.json")
        let valid = Array(#"""
            {"trustedIssuers": [], "allowUnlicensed": false, "extensions": [
              {"path": "a.so", "layout": "qwerty", "typing": {"autocapitalization": true, "textReplacements": {"a": "b"},
               "keyFeedback": {"sound": false}}, "appearance": {"theme": "light"}, "options": {"x": [1, null, "s"]}}]}
            """#.utf8)
        await propertyCheck(count: 400, input: Gen.int(in: 0...(valid.count - 1)), Gen.uint8(), Gen.int(in: 0...2)) { index, byte, kind in
            var bytes = valid
            switch kind {
            case 0: bytes[index] = byte
            case 1: bytes.remove(at: index)
            default: bytes.insert(byte, at: index)
            }
            try? Data(bytes).write(to: config)
            do throws(HostConfigurationError) {
                _ = try HostConfiguration.read(config.path)
            } catch {
                #expect(error.description.hasPrefix("configuration '\(config.path)': "))
                #expect(!error.description.contains("\n"))
            }
        }
        await propertyCheck(count: 300, input: Gen.uint8().array(of: 0...200)) { bytes in
            _ = try? JSONDecoder().decode(HostSettings.self, from: Data(bytes))
        }
    }
}
