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
        host.log.compactMap { if case .platformNote(let note) = $0 { note } else { nil } }
    }

    @Test func underIOSAMoveCountsUTF16UnitsAndUnderExactCharacters() async throws {
        // From after 👍🏽 (Character 2), back 4: over 👍🏽 alone on iOS, to the start (clamped) exactly.
        #expect(try await moved(.ios, from: 2, by: -4).cursor == 1)
        #expect(try await moved(.exact, from: 2, by: -4).cursor == 0)
        // From the end, back 1 and back 11: over "c" and the family, two Characters, and nothing to say.
        let family = try await moved(.ios, from: 5, by: -1, -11)
        #expect(family.cursor == 3)
        #expect(notes(family).isEmpty)
    }

    @Test func aMoveEndingInsideACharacterStopsBeforeItAndSaysSo() async throws {
        // From the end, back 4: over "c" (1 unit), then 3 of the family's 11 — inside it. This host's
        // choice: the caret stays on the side it came from, and a note says what happened.
        let ios = try await moved(.ios, from: 5, by: -4)
        #expect(ios.cursor == 4)
        #expect(notes(ios) == [
            "adjustTextPosition(-4) would end inside \"👨‍👩‍👧‍👦\" (11 UTF-16 units); this host stops the caret before it",
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

    @Test func profilesAreFoundByName() {
        #expect(PlatformProfile.all.map(\.description) == ["exact", "ios"])
        #expect(PlatformProfile(named: "ios") == .ios)
        #expect(PlatformProfile(named: "iOS") == nil)
    }
}
