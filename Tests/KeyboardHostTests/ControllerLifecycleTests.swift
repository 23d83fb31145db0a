import KeyboardExtension
import KeyboardHost
import Testing

// Extensions linked into the test process and hosted through their descriptors: the same C calls as
// after dlopen, so these tests see exactly what an extension author's controller sees.

/// What recording keyboards saw, per keyboard class (each test uses its own class).
@MainActor
enum Recorder {
    static var events: [ObjectIdentifier: [String]] = [:]
    static var nextInstance = 0

    static func record(_ type: AnyClass, _ event: String) {
        events[ObjectIdentifier(type), default: []].append(event)
    }

    static func events(of type: AnyClass) -> [String] { events[ObjectIdentifier(type)] ?? [] }
}

/// A keyboard with a one-row layout ("a", "b", delete, and a key that moves the cursor back) that
/// records every call it gets, with what its proxy said at the time.
class RecordingKeyboard: KeyboardViewController {
    let number: Int

    required init() {
        Recorder.nextInstance += 1
        number = Recorder.nextInstance
        super.init()
        record("init")
    }

    isolated deinit { record("deinit") }

    func record(_ event: String) { Recorder.record(type(of: self), event) }

    var context: String {
        "[\(textDocumentProxy.documentContextBeforeInput ?? "")|\(textDocumentProxy.documentContextAfterInput ?? "")]"
    }

    override func createConfiguration() -> KeyboardConfiguration {
        record("createConfiguration")
        return KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [
            SubKeyboard(mode: .letters, rows: [[.input("a"), .input("b"), Key(code: .delete, label: "⌫"), Key(code: .input, label: "←")]]),
        ]))
    }

    override func keyTapped(_ key: Key) {
        if key.label == "←" {
            textDocumentProxy.adjustTextPosition(byCharacterOffset: -1)
        } else {
            super.keyTapped(key)
        }
        record("keyTapped \(key.label) \(context)")
    }

    override func viewDidLoad() { record("viewDidLoad") }
    override func viewWillAppear() { record("viewWillAppear \(context)") }
    override func viewDidAppear() { record("viewDidAppear") }
    override func viewWillDisappear() { record("viewWillDisappear") }
    override func viewDidDisappear() { record("viewDidDisappear") }
    override func textWillChange() { record("textWillChange \(context)") }
    override func textDidChange() { record("textDidChange \(context)") }
    override func selectionWillChange() { record("selectionWillChange \(context)") }
    override func selectionDidChange() { record("selectionDidChange \(context)") }
}

final class LifecycleKeyboard: RecordingKeyboard {}
final class FreshKeyboard: RecordingKeyboard {}
final class StaleReadKeyboard: RecordingKeyboard {}
final class CursorKeyboard: RecordingKeyboard {}
final class IdentityKeyboard: RecordingKeyboard {
    override func viewWillAppear() {
        Recorder.record(IdentityKeyboard.self, "hasText \(textDocumentProxy.hasText) id \(textDocumentProxy.documentIdentifier)")
    }
}

/// Does not override createConfiguration().
final class Unconfigured: KeyboardViewController {}

/// Overrides createConfiguration() but calls super's.
final class CallsSuper: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        _ = super.createConfiguration()
        return KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[.input("a")]])]))
    }
}

@MainActor
func hostInProcess(_ type: KeyboardViewController.Type, name: String, field: TextField = TextField()) throws -> KeyboardSession {
    let id = "dev.kbhost.tests." + String(describing: type).lowercased()
    let loaded = try ExtensionLoader.validate(descriptor: type.export(id: id, name: name, version: "1.0.0"), source: "in-process")
    return KeyboardSession(extension: loaded, textField: field)
}

@Suite("KeyboardViewController: lifecycle, configuration, proxy")
@MainActor
struct ControllerLifecycleTests {
    private let a = KeyPosition(subKeyboard: 0, row: 0, column: 0)
    private let left = KeyPosition(subKeyboard: 0, row: 0, column: 3)

    @Test func lifecycleRunsInUIKitsOrder() throws {
        let session = try hostInProcess(LifecycleKeyboard.self, name: "Lifecycle", field: TextField(text: "hi"))
        try session.show()
        session.hide()
        #expect(Recorder.events(of: LifecycleKeyboard.self) == [
            "init", "createConfiguration", "viewDidLoad", "viewWillAppear [hi|]", "viewDidAppear",
            "viewWillDisappear", "viewDidDisappear", "deinit",
        ])
    }

    @Test func everyAppearanceGetsAFreshController() throws {
        let session = try hostInProcess(FreshKeyboard.self, name: "Fresh")
        try session.show()
        session.hide()
        try session.show()
        session.hide()
        let events = Recorder.events(of: FreshKeyboard.self)
        #expect(events.filter { $0 == "init" }.count == 2)
        #expect(events.filter { $0 == "deinit" }.count == 2)
        // The first controller is gone before the second is made: no reuse.
        #expect(events.firstIndex(of: "deinit")! < events.lastIndex(of: "init")!)
    }

    @Test func readsReturnTheOldStateUntilTheHostApplies() async throws {
        let session = try hostInProcess(StaleReadKeyboard.self, name: "Stale", field: TextField(text: "xy", cursor: 1))
        try session.show()
        try session.tap(a)
        // Posted, not applied: the field has not changed yet.
        #expect(session.textField.text == "xy")
        await session.settle()
        #expect(session.textField.text == "xay")
        session.hide()
        let events = Recorder.events(of: StaleReadKeyboard.self)
        let start = try #require(events.firstIndex { $0.hasPrefix("keyTapped") })
        #expect(Array(events[start...].prefix(3)) == [
            "keyTapped a [x|y]",  // right after insertText the proxy still shows the old state
            "textWillChange [x|y]",
            "textDidChange [xa|y]",
        ])
    }

    @Test func aCursorMoveSendsSelectionNotificationsOnly() async throws {
        let session = try hostInProcess(CursorKeyboard.self, name: "Cursor", field: TextField(text: "ab"))
        try session.show()
        try session.tap(left)
        await session.settle()
        #expect(session.textField.cursor == 1)
        try session.tap(left)
        try session.tap(left)  // the second move stops at the start: no change, no notification
        await session.settle()
        session.hide()
        let events = Recorder.events(of: CursorKeyboard.self).filter { !$0.hasPrefix("keyTapped") && !$0.hasPrefix("view") }
        #expect(events == [
            "init", "createConfiguration",
            "selectionWillChange [ab|]", "selectionDidChange [a|b]",
            "selectionWillChange [a|b]", "selectionDidChange [|ab]",
            "deinit",
        ])
    }

    @Test func theProxyKnowsTheDocumentBeforeTheKeyboardAppears() throws {
        let field = TextField(text: "seed")
        let session = try hostInProcess(IdentityKeyboard.self, name: "Identity", field: field)
        try session.show()
        session.hide()
        #expect(Recorder.events(of: IdentityKeyboard.self).contains("hasText true id \(field.documentIdentifier)"))
    }

    @Test func notOverridingCreateConfigurationIsAnError() throws {
        let session = try hostInProcess(Unconfigured.self, name: "Unconfigured Keyboard")
        #expect(throws: SessionError.self) { try session.show() }
        do {
            try session.show()
        } catch {
            #expect(error.description
                == "Unconfigured Keyboard does not configure itself: Unconfigured must override createConfiguration() and must not call super's")
        }
        #expect(!session.isShown)
    }

    @Test func callingSupersCreateConfigurationIsAnError() throws {
        let session = try hostInProcess(CallsSuper.self, name: "Calls Super")
        do {
            try session.show()
            Issue.record("show() should have failed")
        } catch {
            #expect(error == .configurationNotOverridden(
                extension: "Calls Super", message: "CallsSuper must override createConfiguration() and must not call super's"
            ))
        }
    }
}
