import Foundation
import KeyboardModel

/// Encodes and decodes the wire's messages (``ToExtension``, ``FromExtension``).
///
/// A frame is a 64-bit little-endian length, then that many bytes: for the host's messages, their
/// sequence and the host's clock first; then a kind byte and the fields in order — integers
/// little-endian, strings as a 32-bit length and UTF-8, UUIDs as 16 bytes. The Swift compiler's plugin
/// server frames its messages the same way; its payload is JSON, ours binary, because a keystroke
/// crosses the wire several times and JSON coding would cost more than the crossing.
/// A message that does not decode is a ``WireError``, which the host treats as a fault of the child.
package enum WireCodec {
    // MARK: Frames

    /// The frame for `payload`.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var frame = [UInt8]()
        frame.reserveCapacity(8 + payload.count)
        appendFrame(payload, to: &frame)
        return frame
    }

    /// Appends the frame for `payload` to `bytes` (what is held to be sent together).
    static func appendFrame(_ payload: [UInt8], to bytes: inout [UInt8]) {
        Writer.append(UInt64(payload.count), to: &bytes)
        bytes += payload
    }

    // MARK: Host to child

    static func encode(_ numbered: NumberedMessage) -> [UInt8] {
        var w = Writer()
        w.u64(numbered.sequence)
        w.u64(numbered.nowNanoseconds)
        switch numbered.message {
        case .load(let library, let sha256, let version):
            w.u8(1)
            w.string(library)
            w.string(sha256)
            w.u32(version)
        case .createInstance(let settings):
            w.u8(2)
            w.string(settings)
        case .createConfiguration: w.u8(3)
        case .lifecycle(let event):
            w.u8(4)
            w.u32(event)
        case .textInput(let event):
            w.u8(5)
            w.u32(event)
        case .snapshot(let snapshot):
            w.u8(6)
            w.snapshot(snapshot)
        case .keyEvent(let event):
            w.u8(7)
            w.u32(event.action.rawValue)
            w.u32(UInt32(clamping: event.position.subKeyboard))
            w.u32(UInt32(clamping: event.position.row))
            w.u32(UInt32(clamping: event.position.column))
            w.i32(Int32(clamping: event.callout ?? -1))
            w.u32(UInt32(clamping: event.repeatCount))
            w.i32(Int32(clamping: event.dragX))
            w.i32(Int32(clamping: event.dragY))
        case .hostCommand(let command, let request):
            w.u8(8)
            w.u32(command)
            w.u64(request)
        case .cancelCommand(let request):
            w.u8(9)
            w.u64(request)
        case .fireTimer(let token):
            w.u8(10)
            w.u64(token)
        case .destroyInstance: w.u8(11)
        case .barrier: w.u8(12)
        case .loadClass(let mangledName, let identifier, let name, let version):
            w.u8(13)
            w.string(mangledName)
            w.string(identifier)
            w.string(name)
            w.u32(version)
        }
        return w.bytes
    }

    static func decodeToExtension(_ bytes: [UInt8]) throws(WireError) -> NumberedMessage {
        var r = Reader(bytes)
        let sequence = try r.u64()
        let now = try r.u64()
        let kind = try r.u8()
        let message: ToExtension
        switch kind {
        case 1: message = .load(library: try r.string(), sha256: try r.string(), wireVersion: try r.u32())
        case 2: message = .createInstance(settingsJSON: try r.string())
        case 3: message = .createConfiguration
        case 4: message = .lifecycle(try r.u32())
        case 5: message = .textInput(try r.u32())
        case 6: message = .snapshot(try r.snapshot())
        case 7:
            let code = try r.u32()
            guard let action = KeyEvent.Action(rawValue: code) else { throw .malformed("unknown key action \(code)") }
            let position = KeyPosition(subKeyboard: Int(try r.u32()), row: Int(try r.u32()), column: Int(try r.u32()))
            let callout = try r.i32()
            message = .keyEvent(KeyEvent(
                action, at: position, callout: callout < 0 ? nil : Int(callout), repeatCount: Int(try r.u32()),
                dragX: Int(try r.i32()), dragY: Int(try r.i32())
            ))
        case 8: message = .hostCommand(command: try r.u32(), request: try r.u64())
        case 9: message = .cancelCommand(request: try r.u64())
        case 10: message = .fireTimer(token: try r.u64())
        case 11: message = .destroyInstance
        case 12: message = .barrier
        case 13: message = .loadClass(mangledName: try r.string(), identifier: try r.string(), name: try r.string(), wireVersion: try r.u32())
        default: throw .malformed("unknown message kind \(kind)")
        }
        try r.end()
        return NumberedMessage(sequence: sequence, nowNanoseconds: now, message: message)
    }

    // MARK: Child to host

    static func encode(_ message: FromExtension) -> [UInt8] {
        var w = Writer()
        switch message {
        case .reply(let sequence, let status, let payload):
            w.u8(1)
            w.u64(sequence)
            w.i32(status)
            w.data(payload)
        case .call(let call):
            w.u8(2)
            w.call(call)
        case .scheduleTimer(let token, let delay, let repeats, let label):
            w.u8(3)
            w.u64(token)
            w.u64(delay)
            w.u8(repeats ? 1 : 0)
            w.string(label)
        case .cancelTimer(let token):
            w.u8(4)
            w.u64(token)
        case .idle(let sequence):
            w.u8(5)
            w.u64(sequence)
        }
        return w.bytes
    }

    static func decodeFromExtension(_ bytes: [UInt8]) throws(WireError) -> FromExtension {
        var r = Reader(bytes)
        let message: FromExtension
        switch try r.u8() {
        case 1: message = .reply(sequence: try r.u64(), status: try r.i32(), payload: try r.data())
        case 2: message = .call(try r.call())
        case 3: message = .scheduleTimer(token: try r.u64(), delayNanoseconds: try r.u64(), repeats: try r.u8() != 0, label: try r.string())
        case 4: message = .cancelTimer(token: try r.u64())
        case 5: message = .idle(sequence: try r.u64())
        case let kind: throw .malformed("unknown message kind \(kind)")
        }
        try r.end()
        return message
    }
}

/// Why bytes on the wire are not a message.
enum WireError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case tooLarge(Int)
    case closed

    var description: String {
        switch self {
        case .malformed(let detail): detail
        case .tooLarge(let bytes): "a message of \(bytes) bytes, more than the \(Wire.maximumMessageBytes >> 20) MiB allowed"
        case .closed: "the connection closed"
        }
    }
}

// MARK: Fields

private struct Writer {
    /// Room for most messages at once: a keystroke's grew the array five times.
    var bytes: [UInt8] = { var bytes = [UInt8](); bytes.reserveCapacity(64); return bytes }()

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { Self.append(value, to: &bytes) }
    mutating func i32(_ value: Int32) { Self.append(value, to: &bytes) }
    mutating func u64(_ value: UInt64) { Self.append(value, to: &bytes) }
    mutating func i64(_ value: Int64) { Self.append(value, to: &bytes) }

    mutating func data(_ value: [UInt8]) {
        u32(UInt32(clamping: value.count))
        bytes += value
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            u32(UInt32(clamping: utf8.count))
            bytes += utf8
        }
    }

    mutating func range(_ range: Range<Int>) {
        i64(Int64(range.lowerBound))
        i64(Int64(range.count))
    }

    mutating func snapshot(_ s: Snapshot) {
        u64(s.sequence)
        string(s.contextBefore)
        string(s.contextAfter)
        string(s.selectedText)
        withUnsafeBytes(of: s.documentIdentifier.uuid) { bytes += $0 }
        u8(s.hasText ? 1 : 0)
        u32(s.traits.keyboardType.rawValue)
        u32(s.traits.returnKeyType.rawValue)
        u32(s.traits.autocapitalizationType.rawValue)
        u32(s.traits.autocorrectionType.rawValue)
        u32(s.traits.spellCheckingType.rawValue)
        u8(s.traits.isSecureTextEntry ? 1 : 0)
        optional(s.traits.textContentType) { $0.string($1) }
        u64(s.operationsApplied)
        optional(s.selection) { $0.range($1) }
        u8(UInt8(PlatformProfile.all.firstIndex(of: s.platform)!))
        optional(s.traits.primaryLanguage) { $0.string($1) }
    }

    /// A presence byte, then the value if present.
    mutating func optional<T>(_ value: T?, _ write: (inout Writer, T) -> Void) {
        u8(value == nil ? 0 : 1)
        if let value { write(&self, value) }
    }

    mutating func call(_ call: ExtensionCall) {
        switch call {
        case .post(let operation):
            switch operation {
            case .insertText(let text): u8(1); string(text)
            case .deleteBackward: u8(2)
            case .adjustTextPosition(let offset): u8(3); i64(Int64(offset))
            case .setMarkedText(let text, let selected): u8(4); string(text); range(selected)
            case .unmarkText: u8(5)
            case .setSelectedRange(let selected, let snapshot): u8(6); range(selected); u64(snapshot)
            case .deleteRange(let deleted, let snapshot): u8(7); range(deleted); u64(snapshot)
            }
        case .request(.advanceToNextInputMode): u8(8)
        case .request(.dismissKeyboard): u8(9)
        case .reportError(let message): u8(10); string(message)
        case .commandFinished(let request, let succeeded, let json): u8(11); u64(request); u8(succeeded ? 1 : 0); string(json)
        case .setKeyboardState(let state): u8(12); u32(UInt32(clamping: state.subKeyboard)); u32(state.shift.rawValue)
        case .setLayout(let json): u8(13); string(json)
        case .reportEvent(let json): u8(14); string(json)
        case .request(.playInputClick): u8(15)
        case .request(.showInputModeList): u8(16)
        }
    }
}

private struct Reader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func take(_ count: Int) throws(WireError) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else {
            throw .malformed("ends early: \(count) more bytes wanted at byte \(offset) of \(bytes.count)")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(WireError) -> T {
        let slice = try take(MemoryLayout<T>.size)
        return slice.reversed().reduce(T.zero) { $0 << 8 | T($1) }
    }

    mutating func u8() throws(WireError) -> UInt8 { try take(1).first! }
    mutating func u32() throws(WireError) -> UInt32 { try integer(UInt32.self) }
    mutating func i32() throws(WireError) -> Int32 { try integer(Int32.self) }
    mutating func u64() throws(WireError) -> UInt64 { try integer(UInt64.self) }
    mutating func i64() throws(WireError) -> Int64 { try integer(Int64.self) }

    mutating func data() throws(WireError) -> [UInt8] {
        Array(try take(Int(try u32())))
    }

    mutating func string() throws(WireError) -> String {
        String(decoding: try take(Int(try u32())), as: UTF8.self)
    }

    /// A range from two int64s, far from overflow: negatives become 0, both ends below 2^32.
    mutating func range() throws(WireError) -> Range<Int> {
        let start = Int(min(max(try i64(), 0), Int64(UInt32.max)))
        return start..<(start + Int(min(max(try i64(), 0), Int64(UInt32.max))))
    }

    mutating func snapshot() throws(WireError) -> Snapshot {
        let sequence = try u64()
        let before = try string(), after = try string(), selected = try string()
        let id = Array(try take(16))
        let uuid = UUID(uuid: (id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7],
                               id[8], id[9], id[10], id[11], id[12], id[13], id[14], id[15]))
        let hasText = try u8() != 0
        var traits = TextInputTraits(
            keyboardType: .init(rawValue: try u32()) ?? .default,
            returnKeyType: .init(rawValue: try u32()) ?? .default,
            autocapitalizationType: .init(rawValue: try u32()) ?? .sentences,
            autocorrectionType: .init(rawValue: try u32()) ?? .default,
            spellCheckingType: .init(rawValue: try u32()) ?? .default,
            isSecureTextEntry: try u8() != 0,
            textContentType: try optional { r throws(WireError) in try r.string() }
        )
        let operationsApplied = try u64()
        let selection = try optional { r throws(WireError) in try r.range() }
        let platform = try platform()
        traits.primaryLanguage = try optional { r throws(WireError) in try r.string() }
        return Snapshot(
            sequence: sequence, contextBefore: before, contextAfter: after, selectedText: selected,
            documentIdentifier: uuid, hasText: hasText, traits: traits, operationsApplied: operationsApplied,
            selection: selection,
            platform: platform
        )
    }

    /// What ``Writer/optional(_:_:)`` wrote.
    mutating func optional<T>(_ read: (inout Reader) throws(WireError) -> T) throws(WireError) -> T? {
        try u8() != 0 ? try read(&self) : nil
    }

    mutating func platform() throws(WireError) -> PlatformProfile {
        let index = Int(try u8())
        guard PlatformProfile.all.indices.contains(index) else { throw WireError.malformed("an unknown platform (\(index))") }
        return PlatformProfile.all[index]
    }

    mutating func call() throws(WireError) -> ExtensionCall {
        switch try u8() {
        case 1: return .post(.insertText(try string()))
        case 2: return .post(.deleteBackward)
        case 3: return .post(.adjustTextPosition(byCharacterOffset: Int(try i64())))
        case 4: return .post(.setMarkedText(try string(), selectedRange: try range()))
        case 5: return .post(.unmarkText)
        case 6: return .post(.setSelectedRange(try range(), ifSnapshot: try u64()))
        case 7: return .post(.deleteRange(try range(), ifSnapshot: try u64()))
        case 8: return .request(.advanceToNextInputMode)
        case 9: return .request(.dismissKeyboard)
        case 10: return .reportError(try string())
        case 11: return .commandFinished(request: try u64(), succeeded: try u8() != 0, json: try string())
        case 12:
            let sub = Int(try u32())
            return .setKeyboardState(KeyboardState(subKeyboard: sub, shift: ShiftState(rawValue: try u32()) ?? .off))
        case 13: return .setLayout(json: try string())
        case 14: return .reportEvent(json: try string())
        case 15: return .request(.playInputClick)
        case 16: return .request(.showInputModeList)
        case let kind: throw .malformed("unknown call kind \(kind)")
        }
    }

    func end() throws(WireError) {
        guard offset == bytes.count else { throw .malformed("\(bytes.count - offset) bytes left over") }
    }
}

extension WireCodec {
    /// For the fuzz target (`Fuzz/`): decodes `bytes` as a message of either side. Whatever decodes
    /// must encode and decode again to the same message; whatever does not is a ``WireError``, never a
    /// trap. Returns how many of the two sides decoded it.
    package static func checkDecoding(_ bytes: [UInt8]) -> Int {
        var decoded = 0
        if let message = try? decodeToExtension(bytes) {
            precondition((try? decodeToExtension(encode(message))) == message, "a host message does not survive its round trip")
            decoded += 1
        }
        if let message = try? decodeFromExtension(bytes) {
            precondition((try? decodeFromExtension(encode(message))) == message, "a child message does not survive its round trip")
            decoded += 1
        }
        return decoded
    }
}
