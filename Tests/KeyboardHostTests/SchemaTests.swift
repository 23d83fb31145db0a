import Foundation
import KeyboardHost
import KeyboardModel
import Testing
import TestSupport

/// The JSON Schemas in docs/schemas say what the Swift types read and write: each object's properties
/// are the keys the type writes when every field is set, and each schema's examples are read by the
/// type, strictly. A field added to a type and not to its schema (or the reverse) fails here.
@Suite("The JSON Schemas of what crosses the ABI")
struct SchemaTests {
    private static let folder = BuildProducts.packageRoot.appendingPathComponent("docs/schemas")

    private static func schema(_ file: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(file))) as? [String: Any])
    }

    /// The object at `path` ("" for the root, else `$defs/name`) of `file`.
    private static func object(_ file: String, _ path: String = "") throws -> [String: Any] {
        var node = try schema(file)
        for part in path.split(separator: "/") {
            node = try #require(node[String(part)] as? [String: Any], "\(file)#/\(path)")
        }
        return node
    }

    private static func properties(_ file: String, _ path: String = "") throws -> Set<String> {
        Set(try #require(try object(file, path)["properties"] as? [String: Any]).keys)
    }

    /// The keys `value` writes at the top of its JSON.
    private static func keys(_ value: some Encodable) throws -> Set<String> {
        Set(try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]).keys)
    }

    private static let key = Key(code: .input, label: "a", output: "b", width: 2, height: 2, leftPadding: 1, callouts: ["á"])
    private static let page = SubKeyboard(
        mode: .numbers, rows: [[key]], tapByPosition: true, margins: Margins(left: .fraction(0.1)), horizontalGap: 0.1,
        verticalGap: 0.1, shuffle: Shuffle(keys: true, values: true)
    )
    private static let layout = KeyboardLayout(subKeyboards: [page], secure: true)
    private static let typing = TypingOptions(
        autocapitalization: true, autocorrection: true, textReplacements: ["omw": "On my way!"], doubleSpacePeriod: true,
        keyFeedback: KeyFeedback(highlight: false, sound: true)
    )
    private static let license = LicenseConfiguration(licenseKey: "key", licenseSecret: "secret")

    @Test func eachObjectHasTheTypesKeys() throws {
        #expect(try Self.properties("layout.schema.json") == Self.keys(Self.layout))
        #expect(try Self.properties("layout.schema.json", "$defs/subKeyboard") == Self.keys(Self.page))
        #expect(try Self.properties("layout.schema.json", "$defs/key") == Self.keys(Self.key))
        #expect(try Self.properties("layout.schema.json", "$defs/margins") == Self.keys(Margins()))
        #expect(try Self.properties("layout.schema.json", "$defs/shuffle") == Self.keys(Shuffle(keys: true, values: true)))
        let configuration = KeyboardConfiguration(
            license: Self.license, layout: Self.layout, requestsSecureEntry: true, inputType: .digits,
            layoutRefreshInterval: 60, typing: Self.typing, appearance: Appearance(theme: .light, showsLowercaseKeys: false)
        )
        #expect(try Self.properties("configuration.schema.json") == Self.keys(configuration))
        #expect(try Self.properties("configuration.schema.json", "$defs/license") == Self.keys(Self.license))
        #expect(try Self.properties("configuration.schema.json", "$defs/typing") == Self.keys(Self.typing))
        #expect(try Self.properties("configuration.schema.json", "$defs/appearance") == Self.keys(Appearance()))
        let feedback = try #require(try Self.object("configuration.schema.json", "$defs/typing/properties/keyFeedback")["properties"] as? [String: Any])
        #expect(Set(feedback.keys) == (try Self.keys(KeyFeedback())))
        #expect(try Self.properties("event.schema.json") == Self.keys(KeyboardEvent("x", ["a": "b"])))
        let answer = CommandAnswer(before: "a", after: "b", selected: "c", deletedCharacters: 1, roundTrips: 2, exact: true, error: .userCancelled)
        #expect(try Self.properties("command-answer.schema.json") == Self.keys(answer))
        let mode = InputMode(identifier: "a.b", name: "A", primaryLanguage: "fr")
        let environment = KeyboardEnvironment(
            fullAccess: true, primaryLanguage: "fr", dictation: true, needsInputModeSwitchKey: true, inputModes: [mode],
            lexicon: [LexiconEntry(userInput: "a", documentText: "b")]
        )
        let settings = HostSettings(
            license: Self.license, layout: Self.layout, typing: .object([:]), appearance: .object([:]), options: ["a": .bool(true)], storage: "/tmp",
            environment: environment
        )
        #expect(try Self.properties("settings.schema.json") == Self.keys(settings))
        #expect(try Self.properties("settings.schema.json", "$defs/environment") == Self.keys(environment))
        #expect(try Self.properties("settings.schema.json", "$defs/inputMode") == Self.keys(mode))
        #expect(try Self.properties("settings.schema.json", "$defs/lexiconEntry") == Self.keys(LexiconEntry(userInput: "a", documentText: "b")))
    }

    /// The enumerations the schemas list are the types' cases.
    @Test func enumerationsAreTheTypesCases() throws {
        let inputTypes = try #require((try Self.object("configuration.schema.json", "properties/inputType"))["enum"] as? [String])
        #expect(Set(inputTypes) == Set(InputType.allCases.map(\.rawValue)))
        let themes = try #require((try Self.object("configuration.schema.json", "$defs/appearance/properties/theme"))["enum"] as? [String])
        #expect(Set(themes) == Set(Appearance.Theme.allCases.map(\.rawValue)))
        let modes = try #require((try Self.object("layout.schema.json", "$defs/subKeyboard/properties/mode"))["enum"] as? [String])
        #expect(Set(modes) == Set(KeyboardMode.allCases.map(\.rawValue)))
    }

    /// Every example is read by its type, strictly, as a file would be.
    @Test(arguments: [
        ("layout.schema.json", "layout"), ("configuration.schema.json", "configuration"), ("event.schema.json", "event"),
        ("command-answer.schema.json", "answer"), ("settings.schema.json", "settings"),
    ])
    func examplesAreReadByTheirTypes(file: String, kind: String) throws {
        let examples = try #require(try Self.schema(file)["examples"] as? [Any])
        #expect(!examples.isEmpty)
        for example in examples {
            let data = try JSONSerialization.data(withJSONObject: example)
            switch kind {
            case "layout": _ = try JSONInput.decode(KeyboardLayout.self, from: data)
            case "configuration": _ = try JSONInput.decode(KeyboardConfiguration.self, from: data)
            case "event": _ = try JSONInput.decode(KeyboardEvent.self, from: data)
            case "answer": _ = try JSONInput.decode(CommandAnswer.self, from: data)
            default: _ = try JSONInput.decode(HostSettings.self, from: data)
            }
        }
    }
}
