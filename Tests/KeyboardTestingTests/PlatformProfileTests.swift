import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// A keyboard that moves the caret by the offset on its key's label, as a cursor-walking keyboard does.
final class MovingKeyboard: KeyboardViewController {
    static let moves = [-1, -4, -11, 2, 4, Int.min, Int.max]

    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [
            Self.moves.map { Key(code: .input, label: "\($0)") },
        ])]))
    }

    override func keyTapped(_ key: Key) {
        textDocumentProxy.adjustTextPosition(byCharacterOffset: Int(key.label) ?? 0)
    }
}

/// A keyboard with a backspace (`deleteBackward()`, as every keyboard's) and a key that types "a".
final class BackspaceKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [
            [Key(code: .input, label: "⌫"), Key(code: .input, label: "a")],
        ])]))
    }

    override func keyTapped(_ key: Key) {
        if key.label == "a" { textDocumentProxy.insertText("a") } else { textDocumentProxy.deleteBackward() }
    }
}

/// The platform profiles (issue 14): what each platform counts, where it differs from this host's exact
/// behaviour — each rule under its profile, and the same taps under `exact` for contrast.
@Suite("Platform profiles")
@MainActor
struct PlatformProfileTests {
    /// 👍🏽 is 4 UTF-16 units and 👨‍👩‍👧‍👦 is 11 (openradar 16912444; wurstfinger PR #205): 5 Characters, 19 units.
    static let emoji = "a👍🏽b👨‍👩‍👧‍👦c"

    /// A host on `document` under `platform`, after the keyboard moved the caret by each of `moves` from
    /// `cursor` (posted in one turn, then applied).
    private func moved(
        _ platform: PlatformProfile, _ document: String = emoji, from cursor: Int, by moves: Int...
    ) async throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(MovingKeyboard.self, document: document, cursor: cursor, platform: platform)
        try host.show()
        for move in moves { try host.tap("\(move)") }
        await host.settle()
        #expect(host.document == document)  // a move changes no text
        return host
    }

    private func notes(_ host: KeyboardTestHost) -> [String] {
        host.platformNotes
    }

    @Test func underIOSAMoveCountsUTF16UnitsAndUnderExactCharacters() async throws {
        // From after 👍🏽 (Character 2), back 4: over 👍🏽 alone on iOS, to the start (clamped) exactly.
        #expect(try await moved(.ios, from: 2, by: -4).cursor == 1)
        #expect(try await moved(.exact, from: 2, by: -4).cursor == 0)
        // From the end, back 1 and back 11: over "c" and the family, two Characters, no Character cut
        // (the one note is of the two quick moves, below).
        let family = try await moved(.ios, from: 5, by: -1, -11)
        #expect(family.cursor == 3)
        #expect(notes(family) == ["2 caret moves before ios's refresh: the proxy keeps its old windows until the next change"])
    }

    @Test func underIOSTheContextIsStaleFor20MillisecondsAfterAMove() async throws {
        // keyman PR #10633: read 20 ms after a move, the context was there; 10 ms and 1 ms, not yet.
        for platform in [PlatformProfile.ios, .exact] {
            let host = try KeyboardTestHost(MovingKeyboard.self, document: "One. Two", cursor: 8, platform: platform)
            try host.show()
            let proxy = try #require(host.controller).textDocumentProxy
            try host.tap("-1")
            await host.advance(by: .milliseconds(10))
            #expect(proxy.documentContextBeforeInput == (platform == .ios ? " Two" : " Tw"), "\(platform)")
            await host.advance(by: .milliseconds(10))
            #expect(proxy.documentContextBeforeInput == " Tw", "\(platform)")
        }
        // A latency the test picks replaces the platform's.
        let host = try KeyboardTestHost(MovingKeyboard.self, document: "One. Two", cursor: 8, latency: .zero, platform: .ios)
        #expect(host.latency == .zero)
    }

    @Test func underIOSASecondMoveBeforeTheRefreshLeavesTheOldWindows() async throws {
        // keyman #10204: two adjustTextPosition calls in one go, and "the textDocumentProxy will not
        // update its context window". The moves are made; the keyboard is not shown where they led.
        for platform in [PlatformProfile.ios, .exact] {
            let host = try KeyboardTestHost(MovingKeyboard.self, document: "One. Two", cursor: 8, platform: platform)
            try host.show()
            let proxy = try #require(host.controller).textDocumentProxy
            try host.tap("-1")
            await host.advance(by: .milliseconds(5))
            try host.tap("-1")  // before the first one's refresh
            await host.settle()
            #expect(host.cursor == 6)
            #expect(proxy.documentContextBeforeInput == (platform == .ios ? " Two" : " T"), "\(platform)")
            #expect(notes(host).count == (platform == .ios ? 1 : 0))
            // The next change brings the windows back.
            try host.tap("-1")
            await host.settle()
            #expect(proxy.documentContextBeforeInput == " ", "\(platform)")
        }
    }

    @Test func aMoveEndingInsideACharacterStopsBeforeItAndSaysSo() async throws {
        // From the end, back 4: over "c" (1 unit), then 3 of the family's 11 — inside it. This host's
        // choice: the caret stays on the side it came from, and a note says what happened.
        let ios = try await moved(.ios, from: 5, by: -4)
        #expect(ios.cursor == 4)
        #expect(notes(ios) == [
            "adjustTextPosition(-4) would end inside U+1F468 U+200D U+1F469 U+200D U+1F467 U+200D U+1F466 (11 UTF-16 units); this host stops the caret before it",
        ])
        // Forward by 2 from the start: over "a", then 1 of 👍🏽's 4.
        let forward = try await moved(.ios, from: 0, by: 2)
        #expect(forward.cursor == 1)
        #expect(notes(forward).count == 1)
        // The same move under exact moves by Characters and says nothing.
        let exact = try await moved(.exact, from: 5, by: -4)
        #expect(exact.cursor == 1)
        #expect(notes(exact).isEmpty)
    }

    @Test func aLineBreakOfTwoUnitsIsOneCharacter() async throws {
        // "\r\n" is one Character and 2 UTF-16 units: a keyboard stepping back 1 unit from after it is
        // left where it was on iOS (and told), where exact steps over it.
        let ios = try await moved(.ios, "ab\r\ncd", from: 3, by: -1)
        #expect(ios.cursor == 3)
        #expect(notes(ios).count == 1)
        #expect(try await moved(.exact, "ab\r\ncd", from: 3, by: -1).cursor == 2)
    }

    @Test func aMovePastEitherEndStopsThereWhateverTheOffset() async throws {
        #expect(try await moved(.ios, from: 1, by: -11).cursor == 0)
        #expect(try await moved(.ios, from: 4, by: 4).cursor == 5)
        // Any Int may arrive from an extension: the largest offsets stop at the ends, no overflow.
        #expect(try await moved(.ios, from: 2, by: Int.min).cursor == 0)
        #expect(try await moved(.ios, from: 2, by: Int.max).cursor == 5)
        #expect(try await moved(.exact, from: 2, by: Int.min).cursor == 0)
        #expect(try await moved(.exact, from: 2, by: Int.max).cursor == 5)
    }

    /// A host on `document` under `platform`, with `selection` selected, after `count` backspaces
    /// (each applied before the next, as a user's are).
    private func backspaced(
        _ platform: PlatformProfile, _ document: String, selection: Range<Int>? = nil, times count: Int = 1
    ) async throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(BackspaceKeyboard.self, document: document, platform: platform)
        if let selection { host.userSelects(selection) }
        try host.show()
        for _ in 0..<count {
            try host.tap("⌫")
            await host.settle()
        }
        return host
    }

    @Test func underAndroidABackspaceDeletesOneUTF16Unit() async throws {
        // "é" written e + U+0301 is one Character of two units: Android takes the accent alone.
        let accent = try await backspaced(.android, "cafe\u{301}")
        #expect(accent.document == "cafe")
        #expect(notes(accent) == ["deleteBackward() deleted the last UTF-16 unit of U+0065 U+0301 (2 UTF-16 units)"])
        for platform in [PlatformProfile.exact, .ios] {
            let whole = try await backspaced(platform, "cafe\u{301}")
            #expect(whole.document == "caf")
            #expect(notes(whole).isEmpty)
        }
        // A CRLF line break loses its "\n" and keeps its "\r".
        #expect(try await backspaced(.android, "ab\r\n").document == "ab\r")
    }

    @Test func underAndroidHalfASurrogatePairIsLeftAsAReplacementCharacter() async throws {
        // 👍🏽 is 👍 and 🏽, each a surrogate pair: one backspace on Android leaves 👍 and half of 🏽.
        let once = try await backspaced(.android, "a👍🏽")
        #expect(once.document == "a👍\u{FFFD}")
        #expect(once.cursor == 3)
        #expect(notes(once) == [
            "deleteBackward() deleted the last UTF-16 unit of U+1F44D U+1F3FD (4 UTF-16 units); the half of its surrogate pair left is shown as U+FFFD",
        ])
        // A keyboard that erases 👍🏽 with one backspace everywhere else needs four on Android.
        #expect(try await backspaced(.android, "a👍🏽", times: 3).document == "a\u{FFFD}")
        #expect(try await backspaced(.android, "a👍🏽", times: 4).document == "a")
        #expect(try await backspaced(.exact, "a👍🏽").document == "a")
    }

    @Test func underAndroidNothingBeforeTheCaretOrMarkedTextIsDeletedAsElsewhere() {
        var start = TextField(text: "👍🏽", cursor: 0)
        #expect(start.deleteBackward(in: .utf16) == nil)
        #expect(start.text == "👍🏽")
        // Marked (composing) text shrinks by a Character, as a keyboard rewrites what it composes.
        var marked = TextField(text: "a", cursor: 1)
        marked.setMarkedText("👍🏽", selectedRange: 1..<1)
        #expect(marked.deleteBackward(in: .utf16) == nil)
        #expect(marked.text == "a")
    }

    @Test func underAndroidASelectionIsDeletedWhole() async throws {
        // With a selection a keyboard commits nothing in its place (commitText("")): all of it goes.
        let host = try await backspaced(.android, "a👍🏽b", selection: 1..<2)
        #expect(host.document == "ab")
        #expect(notes(host).isEmpty)
    }

    /// The text notifications the keyboard got (`textWillChange`, `textDidChange`), in order.
    private func textNotifications(_ host: KeyboardTestHost) -> [SessionEvent] {
        host.log.filter { $0 == .textWillChange || $0 == .textDidChange }
    }

    @Test func underIOSTheKeyboardsOwnTypingIsNotNotified() async throws {
        for platform in [PlatformProfile.ios, .exact] {
            let host = try KeyboardTestHost(BackspaceKeyboard.self, document: "x", platform: platform)
            try host.show()
            try await host.type("aa")
            #expect(host.document == "xaa")
            #expect(host.controller?.textDocumentProxy.documentContextBeforeInput == "xaa")  // the state came
            let expected: [SessionEvent] = platform == .ios ? [] : Array(repeating: [.textWillChange, .textDidChange], count: 2).flatMap { $0 }
            #expect(textNotifications(host) == expected, "\(platform)")
            // What the user does is told on iOS too.
            host.userMovesCursor(to: 0)
            await host.settle()
            #expect(host.log.last == .selectionDidChange)
        }
    }

    @Test func underIOSErasingBackToALineBreakOrEverythingIsNotifiedAnyway() async throws {
        // keyman PR #2770, #2776: deleting that leaves the caret after a line break, or the field empty,
        // brings textWillChange and textDidChange; any other delete of the keyboard's does not.
        let host = try KeyboardTestHost(BackspaceKeyboard.self, document: "one\ntw", platform: .ios)
        try host.show()
        try host.tap("⌫")
        await host.settle()
        #expect(textNotifications(host).isEmpty)  // "one\nt": after a letter
        try host.tap("⌫")
        await host.settle()
        #expect(textNotifications(host) == [.textWillChange, .textDidChange])  // "one\n": after the line break
        let empty = try await backspaced(.ios, "ab", times: 2)
        #expect(empty.document == "")
        #expect(textNotifications(empty) == [.textWillChange, .textDidChange])  // only the one that emptied it
    }

    @Test func eachPlatformCutsItsOwnWindowsUnlessTheTestPicksOthers() async throws {
        // 5000 bytes of one sentence: Wayland's surrounding text stops at 4000 bytes; Android's initial
        // text at 1024 either side; iOS (and exact) show the sentence.
        let document = String(repeating: "word ", count: 1000)
        var seen: [PlatformProfile: Int] = [:]
        for platform in PlatformProfile.all {
            let host = try KeyboardTestHost(BackspaceKeyboard.self, document: document, platform: platform)
            #expect(host.policy == platform.window)
            try host.show()
            seen[platform] = host.controller?.textDocumentProxy.documentContextBeforeInput?.utf8.count
        }
        #expect(seen == [.exact: 5000, .ios: 5000, .android: 1024, .wayland: 4000])
        let picked = try KeyboardTestHost(BackspaceKeyboard.self, document: document, policy: .characters(3), platform: .wayland)
        #expect(picked.policy == .characters(3))
    }

    /// Five sentences, as in cyanzhong/xTeko #81: iOS gives the first and the last of them.
    static let fiveSentences = "One a. Two b! Three c? Four d.\nFive e"

    @Test func underIOSASelectionOfMoreThanThreeSentencesIsItsFirstAndLast() async throws {
        let document = "Before. " + Self.fiveSentences + " after"
        let selection = 8..<(8 + Self.fiveSentences.count)
        for (platform, expected) in [(PlatformProfile.ios, "One a. Five e"), (.exact, Self.fiveSentences)] {
            let host = try KeyboardTestHost(WalkerKeyboard.self, document: document, platform: platform)
            host.userSelects(selection)
            try host.show()
            #expect(host.walkerKeyboard.textDocumentProxy.selectedText == expected, "\(platform)")
        }
        // Three sentences are not cut.
        #expect(PlatformProfile.ios.selectedText("One. Two! Three?") == "One. Two! Three?")
        #expect(PlatformProfile.ios.selectedText("One. Two! Three? Four") == "One. Four")
        // Spaces and line breaks after an end belong to the sentence they follow; "。" ends one too.
        #expect(PlatformProfile.ios.selectedText("  lead. a. b. c.") == "  lead. c.")
        #expect(PlatformProfile.ios.selectedText("a.\n\nb.\nc.\nd") == "a.\n\nd")
        #expect(PlatformProfile.ios.selectedText("一。二。三。四。") == "一。四。")
        #expect(PlatformProfile.ios.selectedText("") == "")
        #expect(PlatformProfile.exact.selectedText("One. Two! Three? Four") == "One. Two! Three? Four")
    }

    @Test func theFullDocumentReaderWillNotLoseASelectionItCannotMakeAgain() async throws {
        // iOS has no call that selects text: a walk would collapse the user's selection for good. So
        // the reader does not walk, gives what the proxy shows, and says it is not everything.
        let document = "Before. " + Self.fiveSentences + " after"
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: document, platform: .ios)
        host.userSelects(8..<(8 + Self.fiveSentences.count))
        try host.show()
        let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
        #expect(!result.isExact)
        #expect(result.selectedText == "One a. Five e")  // as the proxy cut it
        #expect(result.roundTrips == 0)
        #expect(host.selection == 8..<(8 + Self.fiveSentences.count))  // untouched
        #expect(host.document == document)
    }

    @Test func profilesAreFoundByName() {
        #expect(PlatformProfile.all.map(\.description) == ["exact", "ios", "android", "wayland"])
        #expect(PlatformProfile(named: "wayland") == .wayland)
        #expect(PlatformProfile(named: "ios") == .ios)
        #expect(PlatformProfile(named: "android") == .android)
        #expect(PlatformProfile(named: "iOS") == nil)
    }
}
