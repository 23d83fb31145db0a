import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// A connection that writes every call to a ``CallTrace`` and passes it on: the host's calls to the
/// extension as they are made, then what a call returned as a line of its own (`"call":
/// "returned"`), after whatever the extension called meanwhile; the extension's calls to the host as
/// they arrive. It wraps either transport, so a trace reads the same in process and isolated.
@MainActor
final class TracingConnection: ExtensionConnection, ExtensionConnectionDelegate {
    let inner: any ExtensionConnection
    private let trace: CallTrace
    private let identifier: String
    private let clock: any HostScheduler
    /// Whether the extension asked for secure entry in its configuration: its text is then redacted.
    private var secure = false

    weak var delegate: (any ExtensionConnectionDelegate)?
    var work: ExtensionWork? { inner.work }

    init(_ inner: any ExtensionConnection, trace: CallTrace, extension identifier: String, clock: any HostScheduler) {
        self.inner = inner
        self.trace = trace
        self.identifier = identifier
        self.clock = clock
        inner.delegate = self
    }

    private func record(_ call: String, from side: CallTrace.Side, _ fields: [String: JSONValue] = [:]) {
        trace.record(call, from: side, extension: identifier, at: clock.now, fields)
    }

    /// JSON text as a value in the line (a string if it is not JSON), with any license's secret left
    /// out: a trace goes into bug reports.
    private static func json(_ text: some Collection<UInt8>) -> JSONValue {
        let value = (try? JSONDecoder().decode(JSONValue.self, from: Data(text))) ?? .string(String(decoding: Array(text), as: UTF8.self))
        return withoutSecrets(value)
    }

    private static func withoutSecrets(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            .object(Dictionary(uniqueKeysWithValues: object.map { key, value in
                (key, key == "licenseSecret" ? .string("(not traced)") : withoutSecrets(value))
            }))
        case .array(let array): .array(array.map(withoutSecrets))
        default: value
        }
    }

    private static func status(_ status: kbx_status) -> JSONValue {
        switch Int(status) {
        case Int(KBX_STATUS_OK): "ok"
        case Int(KBX_STATUS_FAILED): "failed"
        case Int(KBX_STATUS_NOT_CONFIGURED): "notConfigured"
        case Int(KBX_STATUS_NO_SUCH_KEY): "noSuchKey"
        default: .number(Double(status))
        }
    }

    private static func range(_ range: Range<Int>) -> JSONValue {
        .array([.number(Double(range.lowerBound)), .number(Double(range.upperBound))])
    }

    // MARK: The host's calls

    /// What a host call returned, after what the extension called during it.
    private func returned(_ call: String, _ fields: [String: JSONValue]) {
        record("returned", from: .extension, fields.merging(["of": .string(call)]) { $1 })
    }

    func createInstance(settingsJSON: String) -> Bool {
        record("create_instance", from: .host, ["settings": Self.json(Array(settingsJSON.utf8))])
        let made = inner.createInstance(settingsJSON: settingsJSON)
        returned("create_instance", ["created": .bool(made)])
        return made
    }

    func createConfiguration() -> (status: kbx_status, json: [UInt8]) {
        record("create_configuration", from: .host)
        let answer = inner.createConfiguration()
        let configuration = Self.json(answer.json)
        if case .object(let object) = configuration, case .bool(let asks)? = object["requestsSecureEntry"] { secure = asks }
        returned("create_configuration", ["status": Self.status(answer.status), "configuration": configuration])
        return answer
    }

    func lifecycle(_ event: kbx_lifecycle_event) {
        let names = [1: "viewDidLoad", 2: "viewWillAppear", 3: "viewDidAppear", 4: "viewWillDisappear", 5: "viewDidDisappear"]
        record("lifecycle", from: .host, ["event": .string(names[Int(event)] ?? "\(event)")])
        inner.lifecycle(event)
    }

    func textInput(_ event: kbx_text_event) {
        let names = [1: "textWillChange", 2: "textDidChange", 3: "selectionWillChange", 4: "selectionDidChange"]
        record("text_input", from: .host, ["event": .string(names[Int(event)] ?? "\(event)")])
        inner.textInput(event)
    }

    func updateSnapshot(_ snapshot: Snapshot) {
        var fields: [String: JSONValue] = [
            "sequence": .number(Double(snapshot.sequence)),
            "before": trace.text(snapshot.contextBefore, secure: secure),
            "after": trace.text(snapshot.contextAfter, secure: secure),
            "selected": trace.text(snapshot.selectedText, secure: secure),
            "documentIdentifier": .string(snapshot.documentIdentifier.uuidString),
            "hasText": .bool(snapshot.hasText),
            "operationsApplied": .number(Double(snapshot.operationsApplied)),
        ]
        if let selection = snapshot.selection { fields["selection"] = Self.range(selection) }
        record("update_snapshot", from: .host, fields)
        inner.updateSnapshot(snapshot)
    }

    func keyEvent(_ event: KeyEvent) -> kbx_status {
        var fields: [String: JSONValue] = [
            "action": .string(event.action.name),
            "position": .array([event.position.subKeyboard, event.position.row, event.position.column].map { .number(Double($0)) }),
        ]
        if let callout = event.callout { fields["callout"] = .number(Double(callout)) }
        if event.repeatCount > 0 { fields["repeatCount"] = .number(Double(event.repeatCount)) }
        if event.dragX != 0 || event.dragY != 0 { fields["drag"] = .array([.number(Double(event.dragX)), .number(Double(event.dragY))]) }
        record("key_event", from: .host, fields)
        let status = inner.keyEvent(event)
        returned("key_event", ["status": Self.status(status)])
        return status
    }

    func hostCommand(_ command: HostCommand, request: UInt64) {
        record("host_command", from: .host, ["command": .string(command.rawValue), "request": .number(Double(request))])
        inner.hostCommand(command, request: request)
    }

    func cancelCommand(request: UInt64) {
        record("cancel_command", from: .host, ["request": .number(Double(request))])
        inner.cancelCommand(request: request)
    }

    func destroyInstance() {
        record("destroy_instance", from: .host)
        inner.destroyInstance()
    }

    func barrier() { inner.barrier() }

    func together(_ body: () -> Void) { inner.together(body) }

    // MARK: The extension's calls

    func extensionCalled(_ call: ExtensionCall) {
        switch call {
        case .post(let operation):
            switch operation {
            case .insertText(let text): record("insert_text", from: .extension, ["text": trace.text(text, secure: secure)])
            case .deleteBackward: record("delete_backward", from: .extension)
            case .adjustTextPosition(let offset): record("adjust_text_position", from: .extension, ["offset": .number(Double(offset))])
            case .setMarkedText(let text, let selected):
                record("set_marked_text", from: .extension, ["text": trace.text(text, secure: secure), "selectedRange": Self.range(selected)])
            case .unmarkText: record("unmark_text", from: .extension)
            case .setSelectedRange(let range, let snapshot):
                record("set_selected_range", from: .extension, ["range": Self.range(range), "ifSnapshot": .number(Double(snapshot))])
            case .deleteRange(let range, let snapshot):
                record("delete_range", from: .extension, ["range": Self.range(range), "ifSnapshot": .number(Double(snapshot))])
            }
        case .request(.advanceToNextInputMode): record("advance_to_next_input_mode", from: .extension)
        case .request(.dismissKeyboard): record("dismiss_keyboard", from: .extension)
        case .request(.playInputClick): record("play_input_click", from: .extension)
        case .request(.showInputModeList): record("show_input_mode_list", from: .extension)
        case .reportError(let message): record("report_error", from: .extension, ["message": .string(message)])
        case .commandFinished(let request, let succeeded, let json):
            var answer = Self.json(Array(json.utf8))
            // A read's answer is the document: redacted as the snapshots are.
            if secure || trace.redactsText, case .object(var object) = answer {
                for key in ["before", "after", "selected"] {
                    if case .string(let text)? = object[key] { object[key] = trace.text(text, secure: true) }
                }
                answer = .object(object)
            }
            record("command_finished", from: .extension, ["request": .number(Double(request)), "succeeded": .bool(succeeded), "answer": answer])
        case .setKeyboardState(let state):
            record("set_keyboard_state", from: .extension, ["subKeyboard": .number(Double(state.subKeyboard)), "shift": .number(Double(state.shift.rawValue))])
        case .setLayout(let json): record("set_layout", from: .extension, ["layout": Self.json(Array(json.utf8))])
        case .reportEvent(let json): record("report_event", from: .extension, ["event": Self.json(Array(json.utf8))])
        }
        delegate?.extensionCalled(call)
    }

    func extensionFailed(_ fault: ExtensionFault) {
        record("fault", from: .extension, ["description": .string(fault.description)])
        delegate?.extensionFailed(fault)
    }
}
