import Foundation
import KeyboardHost
import KeyboardTesting
import Testing
import TestSupport

/// The C sample (samples/CKeyboard), compiled with cc as its README says.
@MainActor
@Suite("Sample: CKeyboard")
struct CKeyboardTests {
    /// Built once per run, into a folder of its own.
    private static let library: Result<String, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("c-sample-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let root = BuildProducts.packageRoot
        let library = folder.appendingPathComponent("libCKeyboard.so").path
        let compiled = try Command.run("/usr/bin/env", [
            "cc", "-std=c11", "-Wall", "-Werror", "-shared", "-fPIC", "-I", root.appendingPathComponent("Sources/KeyboardExtensionABI/include").path,
            "-o", library, root.appendingPathComponent("samples/CKeyboard/CKeyboard.c").path,
        ])
        guard compiled.status == 0 else { throw CompileError(output: compiled.standardError) }
        return library
    }

    struct CompileError: Error { let output: String }

    /// Types through both pages (the planner taps its 123 key, which it tells the host about) and its
    /// 👋 key reports an event; in process and isolated.
    @Test(arguments: Isolation.allCases) func itTypesThroughBothPages(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(extensionAt: try Self.library.get(), isolation: isolation)
        try host.show()
        try await host.type("hi 12!{action:wave}")
        #expect(host.document == "hi 12!👋")
        #expect(host.events.map(\.name) == ["waved"])
        try await host.type("{delete}")
        #expect(host.document == "hi 12!")
        #expect(await host.perform(.readFullDocument).error == .unsupported)
        host.hide()
        await host.settle()
    }

    /// Its gestures, written in C against section 11: a held delete repeats, "i" types the callout
    /// lifted on, a held letter types as it is released; in process and isolated.
    @Test(arguments: Isolation.allCases) func itTakesGestures(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(extensionAt: try Self.library.get(), document: "hhhhhhhh", isolation: isolation)
        try host.show()
        #expect(host.session.loadedExtension.takesKeyGestures)
        try await host.hold(.delete, for: .seconds(1))  // at the press, then 0.5, 0.6, 0.7, 0.8, 0.9 s
        #expect(host.document == "hh")
        try await host.longPress("i", choosing: "ì")
        try await host.hold("h", for: .seconds(1))
        #expect(host.document == "hhìh")
        host.hide()
        await host.settle()
    }

    /// Through kbhost: the configuration it sends is read strictly (no key the host does not know:
    /// it follows the schema).
    @Test func throughKbhostItsConfigurationFollowsTheSchema() throws {
        let library = try Self.library.get()
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("c-trace-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let run = try Command.run(try BuildProducts.kbhost(), ["run", "--allow-unlicensed", library, "--type", "hi 12!{action:wave}", "--trace", trace])
        #expect(run.status == 0, "\(run.standardError)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(output["document"] as? String == "hi 12!👋")
        #expect((output["events"] as? [[String: Any]])?.first?["name"] as? String == "waved")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let returned = try #require(lines.first { $0.contains(#""of":"create_configuration""#) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(returned.utf8)) as? [String: Any])
        let configuration = try JSONSerialization.data(withJSONObject: try #require(object["configuration"]))
        let strict = try JSONInput.decode(KeyboardConfiguration.self, from: configuration)
        #expect(strict.layout.subKeyboards.map(\.mode) == [.letters, .numbers])
        #expect(strict.appearance.theme == .light)
    }
}
