import Foundation
@testable import KeyboardHost
import KeyboardModel
import Testing
import TestSupport

/// Host and extension one revision apart: JSON that crosses the ABI may carry fields the other side
/// does not know (the header's rule: later revisions only append), and each side reads on — while a
/// file a user writes stays strict, so a typo in it is still an error.
@Suite("Host and extension a revision apart")
@MainActor
struct WireEvolutionTests {
    /// A C keyboard from a "newer SDK": its configuration, a key of its layout, the layout it sends
    /// later and the event it reports carry fields this host does not know.
    private static let newerConfiguration = #"{\"layout\":{\"subKeyboards\":[{\"mode\":\"letters\",\"rows\":[[{\"code\":\"input\",\"label\":\"a\",\"haptics\":\"light\"},{\"code\":\"input\",\"label\":\"b\"},{\"code\":\"input\",\"label\":\"c\"},{\"code\":\"delete\",\"label\":\"del\"}]],\"cornerRadius\":6}]},\"suggestionsBar\":true,\"typing\":{\"swipeTyping\":true}}"#

    @Test(arguments: Isolation.allCases)
    func aNewerExtensionsConfigurationLoadsAndTypes(_ isolation: Isolation) async throws {
        let path = try CFixture.build("newerSDK", defines: ["FIXTURE_CONFIGURATION=\"\(Self.newerConfiguration)\""])
        let loaded = try ExtensionLoader.load(path: path, isolation: isolation)
        let scheduler = VirtualScheduler()
        let session = KeyboardSession(extension: loaded, scheduler: scheduler)
        try session.show()
        #expect(session.configuration?.layout.subKeyboards.first?.rows.first?.first?.label == "a")
        try session.tap(KeyPosition(subKeyboard: 0, row: 0, column: 0))
        await scheduler.settle()
        #expect(session.textField.text == "a")
        #expect(session.reportedErrors.isEmpty, "\(Array(session.reportedErrors))")
        // Its descriptor ends before key_gestures (revision 5): it gets taps alone, and a gesture is
        // refused to the host's user in one line, before anything reaches it.
        #expect(!loaded.takesKeyGestures)
        #expect(throws: SessionError.gesturesUnsupported(extension: loaded.name, gesture: .hold(.seconds(1)))) {
            try session.perform(.hold(.seconds(1)), at: KeyPosition(subKeyboard: 0, row: 0, column: 3))
        }
        await scheduler.settle()
        #expect(session.textField.text == "a")
        session.hide()
        await scheduler.settle()
    }

    /// The same unknown key in a layout file is refused, naming it: files stay strict.
    @Test func aLayoutFileWithTheSameUnknownKeyIsRefused() throws {
        let json = Data(#"{"subKeyboards":[{"mode":"letters","rows":[[{"code":"input","label":"a","haptics":"light"}]]}]}"#.utf8)
        let error = #expect(throws: LayoutFileError.self) { try KeyboardLayout(json: json, source: "pad.json") }
        #expect(error?.description.contains("haptics") == true, "\(String(describing: error))")
        #expect(error?.description.contains("unknown key") == true, "\(String(describing: error))")
        // From the ABI (set_layout), the same JSON is read.
        #expect(try KeyboardLayout(json: json, source: "set_layout", unknownKeys: .ignored).subKeyboards.count == 1)
    }

    /// The reverse: a newer host hands this SDK settings with a field it does not know. The Swift
    /// keyboard is made, and reads the fields it knows.
    @Test func aNewerHostsSettingsAreReadByThisSDK() throws {
        let loaded = try ExtensionLoader.load(path: try BuildProducts.sample("HelloKeyboard"), isolation: .inProcess)
        let connection = InProcessConnection(loaded, scheduler: VirtualScheduler())
        let newer = #"{"options":{"greeting":"hi"},"hapticFeedback":{"strength":2},"typing":{"autocapitalization":true,"swipeTyping":true}}"#
        #expect(connection.createInstance(settingsJSON: newer))
        connection.destroyInstance()
        // A field it knows, of the wrong type, is still refused: the SDK says why and makes nothing.
        #expect(!connection.createInstance(settingsJSON: #"{"typing":{"autocapitalization":"yes"}}"#))
    }

    /// A C keyboard built against revision 3's header (kept in the fixtures as it was), before the
    /// host API grew play_input_click: it loads, types and deletes under this host, in both isolations.
    @Test(arguments: Isolation.allCases)
    func aKeyboardBuiltAgainstTheRevision3HeaderLoadsAndTypes(_ isolation: Isolation) async throws {
        let path = try CFixture.build("revision3", headers: "Tests/KeyboardHostTests/Fixtures/abi-revision-3")
        let loaded = try ExtensionLoader.load(path: path, isolation: isolation)
        let scheduler = VirtualScheduler()
        let session = KeyboardSession(extension: loaded, scheduler: scheduler)
        try session.show()
        for column in [0, 0, 3] {  // a, a, delete
            try session.tap(KeyPosition(subKeyboard: 0, row: 0, column: column))
            await scheduler.settle()
        }
        #expect(session.textField.text == "a")
        #expect(session.reportedErrors.isEmpty, "\(Array(session.reportedErrors))")
        session.hide()
        await scheduler.settle()
    }

    /// An answer from a newer SDK: an extra field, and a reason this host does not know, kept as sent.
    @Test func aNewerAnswerIsReadAndAnUnknownReasonKept() {
        let read = CommandResult(command: .readFullDocument, succeeded: true, json: #"{"before":"ab","after":"","selected":"","roundTrips":2,"confidence":0.9}"#)
        #expect(read.succeeded && read.before == "ab" && read.roundTrips == 2 && read.exact == true)
        let failed = CommandResult(command: .deleteFullDocument, succeeded: false, json: #"{"error":"batteryLow","deletedCharacters":3}"#)
        #expect(!failed.succeeded && failed.error == .other("batteryLow") && failed.deletedCharacters == 3)
        #expect(failed.error?.description == "batteryLow")
        let known = CommandResult(command: .readFullDocument, succeeded: false, json: #"{"error":"userCancelled"}"#)
        #expect(known.error == .userCancelled)
    }
}
