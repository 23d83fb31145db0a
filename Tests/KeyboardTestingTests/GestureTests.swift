import Foundation
@testable import KeyboardExtension
import KeyboardExtensionABI
import KeyboardHost
import KeyboardTesting
import Testing

/// Records every gesture handler the host's events reach, as events the host sees (so that a test
/// reads them in either isolation), and keeps the SDK's defaults by calling `super`.
final class GestureRecordingKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [
            [.input("e", callouts: ["é", "è", "ê"]), .input("a"), Key(code: .delete, label: "⌫")],
            [Key(code: .shift, label: "⇧"), Key(code: .space, label: "space", width: 4)],
        ])]))
    }

    private func record(_ name: String, _ key: Key, _ details: [String: String] = [:]) {
        reportEvent(KeyboardEvent(name, details.merging(["key": key.label]) { $1 }))
    }

    override func keyPressed(_ key: Key) {
        record("pressed", key)
        super.keyPressed(key)
    }

    override func keyLongPressed(_ key: Key) {
        record("longPressed", key)
        super.keyLongPressed(key)
    }

    override func keyRepeated(_ key: Key, count: Int) {
        record("repeated", key, ["count": "\(count)"])
        super.keyRepeated(key, count: count)
    }

    override func keyDragged(_ key: Key, byX x: Int, y: Int, touch: KeyTouch) {
        record("dragged", key, ["by": "\(x)", "at": "\(touch.dragX)"])
        super.keyDragged(key, byX: x, y: y, touch: touch)
    }

    override func keyReleased(_ key: Key, touch: KeyTouch) {
        record("released", key, ["callout": touch.calloutIndex.map { "\($0)" } ?? "none", "longPressed": "\(touch.longPressed)"])
        super.keyReleased(key, touch: touch)
    }
}

/// A keyboard that repeats its letters while held, overriding the default (which repeats delete only).
final class RepeatingLettersKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[.input("z")]])]))
    }

    override func keyRepeated(_ key: Key, count: Int) {
        if let text = key.typedText { textDocumentProxy.insertText(text) }
    }
}

@Suite("Key gestures (ABI revision 5)")
@MainActor
struct GestureTests {
    private func host(
        _ isolation: Isolation, document: String = "", cursor: Int? = nil, latency: Duration? = nil, platform: PlatformProfile = .exact
    ) throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(
            GestureRecordingKeyboard.self, document: document, cursor: cursor, latency: latency, isolation: isolation, platform: platform
        )
        try host.show()
        return host
    }

    private func recorded(_ host: KeyboardTestHost) -> [String] {
        host.events.map { event in
            ([event.name, event.details["key"] ?? ""] + event.details.filter { $0.key != "key" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
                .joined(separator: " ")
        }
    }

    @Test(arguments: Isolation.allCases)
    func aLongPressTypesTheCalloutLiftedOn(_ isolation: Isolation) async throws {
        let host = try host(isolation)
        let start = host.now
        try await host.longPress("e", choosing: "è")
        #expect(host.document == "è")
        #expect(host.now - start == KeyGesture.longPressDelay + KeyGesture.calloutSlide)
        #expect(recorded(host) == ["pressed e", "longPressed e", "released e callout=1 longPressed=true"])
        // Under shift the callout is typed upper case, and the one-shot shift goes off.
        try host.tap(.shift)
        try await host.longPress("e", choosing: "é")
        try await host.type("e")
        #expect(host.document == "èÉe")
        // Lifted on none: nothing is typed.
        try await host.longPress("e")
        #expect(host.document == "èÉe")
        host.hide()
        await host.settle()
    }

    @Test(arguments: Isolation.allCases)
    func aLongPressOfAKeyWithoutCalloutsOrOfACalloutItLacksIsRefusedInOneLine(_ isolation: Isolation) async throws {
        let host = try host(isolation)
        #expect(throws: SessionError.gestureRefused(
            extension: "GestureRecordingKeyboard", position: KeyPosition(subKeyboard: 0, row: 0, column: 1), problem: .noCallouts(key: "a")
        )) { try host.session.perform(.longPress(callout: nil), at: KeyPosition(subKeyboard: 0, row: 0, column: 1)) }
        await #expect(throws: SessionError.self) { try await host.longPress("e", choosing: "x") }
        #expect(host.document == "" && host.events.isEmpty)  // refused before anything reached the keyboard
        host.hide()
        await host.settle()
    }

    /// Delete deletes as the finger goes down, repeats from 0.5 s every 0.1 s, and after ten
    /// characters takes words, as iOS's does: the same text every time, on the host's clock, whatever
    /// the isolation or the latency of edits.
    @Test(arguments: Isolation.allCases, [Duration.zero, .milliseconds(30)])
    func holdingDeleteRepeatsAndSpeedsUpTheSameEveryRun(_ isolation: Isolation, latency: Duration) async throws {
        let text = "one two three four five six seven"
        for _ in 0..<2 {
            let host = try host(isolation, document: text, latency: latency)
            try await host.hold(.delete, for: .milliseconds(1800))
            // 1 at the press + 10 characters + 3 words (repeats 11, 12, 13 at 1.5, 1.6, 1.7 s).
            #expect(host.document == "one two ")
            #expect(recorded(host).filter { $0.hasPrefix("repeated") }.count == 13)
            #expect(recorded(host).last == "released ⌫ callout=none longPressed=false")
            host.hide()
            await host.settle()
        }
        let short = try host(isolation, document: "hello world")
        try await short.hold(.delete, for: .seconds(2))
        #expect(short.document.isEmpty)
        short.hide()
        await short.settle()
    }

    @Test(arguments: Isolation.allCases)
    func aHeldLetterTypesOnceAsItIsReleasedUnlessTheKeyboardRepeatsIt(_ isolation: Isolation) async throws {
        let host = try host(isolation)
        try await host.hold("a", for: .seconds(1))
        #expect(host.document == "a")
        #expect(recorded(host).filter { $0.hasPrefix("repeated a") }.count == 5)  // 0.5 … 0.9 s
        // Holding a key with callouts past the delay long-presses it; lifting there types nothing.
        try await host.hold("e", for: .seconds(1))
        #expect(host.document == "a")
        host.hide()
        await host.settle()

        let repeating = try KeyboardTestHost(RepeatingLettersKeyboard.self, isolation: isolation)
        try repeating.show()
        try await repeating.hold("z", for: .seconds(1))
        #expect(repeating.document == "zzzzzz")  // five repeats, and the release types it once more
        repeating.hide()
        await repeating.settle()
    }

    /// The space bar's drag moves the caret a Character per step — also under iOS, whose
    /// adjustTextPosition counts UTF-16 units — and types no space.
    @Test(arguments: Isolation.allCases, [PlatformProfile.exact, .ios])
    func draggingTheSpaceBarMovesTheCaret(_ isolation: Isolation, platform: PlatformProfile) async throws {
        let host = try host(isolation, document: "a👍🏽b🇫🇷c", platform: platform)
        try await host.drag(.space, by: -3)
        #expect(host.cursor == 2)
        #expect(host.document == "a👍🏽b🇫🇷c")
        try await host.drag(.space, by: 2)
        #expect(host.cursor == 4)
        try await host.type("a")
        #expect(host.document == "a👍🏽b🇫🇷ac")
        #expect(recorded(host).filter { $0.hasPrefix("dragged") }.prefix(3) == ["dragged space at=-1 by=-1", "dragged space at=-2 by=-1", "dragged space at=-3 by=-1"])
        host.hide()
        await host.settle()
    }

    /// `--type`'s gesture syntax, through the test host's `type`.
    @Test(arguments: Isolation.allCases)
    func typedGestures(_ isolation: Isolation) async throws {
        let host = try host(isolation, document: "ab ", cursor: 3)
        try await host.type("{longpress:e:ê}a{hold:delete:600ms}{drag:space:-1}e")
        // ê, a; the hold deletes at the press and once at 0.5 s; the drag moves before the space.
        #expect(host.document == "abe ")
        #expect(throws: KeyStrokeError.self) { try KeyStroke.parse("{hold:delete}") }
        host.hide()
        await host.settle()
    }

    /// A gesture still under way when the keyboard goes: its later events are dropped (no release
    /// reaches the next appearance), and the host reports nothing.
    @Test(arguments: Isolation.allCases)
    func aGestureEndsWithTheAppearance(_ isolation: Isolation) async throws {
        let host = try host(isolation, document: "abc")
        try host.session.perform(.hold(.seconds(2)), at: KeyPosition(subKeyboard: 0, row: 0, column: 2))
        host.hide()  // the delete posted at the press is applied as the keyboard goes
        #expect(host.document == "ab")
        try host.show()
        await host.settle()  // the hold's later events fall due, for an appearance that has gone
        #expect(host.document == "ab")
        #expect(host.errors.isEmpty)
        #expect(recorded(host) == ["pressed ⌫"])
        host.hide()
        await host.settle()
    }
}

/// The SDK reads a key event as long as the host's revision made it, and no further.
@Suite("Key events from an earlier host")
struct EarlierKeyEventTests {
    /// A revision-4 host's event is 24 bytes, in an allocation of exactly that: the SDK copies those
    /// alone and takes no callout, repeat or drag for the rest.
    @Test @MainActor func aShorterEventIsReadToItsSizeAlone() throws {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 24, alignment: 8)
        defer { bytes.deallocate() }
        for (offset, value) in [UInt32(1), 24, 3, 0, 1, 2].enumerated() { bytes.storeBytes(of: value, toByteOffset: offset * 4, as: UInt32.self) }
        let event = try #require(InstanceBridge.keyEvent(bytes.assumingMemoryBound(to: kbx_key_event.self)))
        #expect(event.action == 3 && event.row == 1 && event.column == 2 && event.struct_size == 24)
        #expect(event.callout == -1 && event.repeat_count == 0 && event.drag_x == 0)
    }
}
