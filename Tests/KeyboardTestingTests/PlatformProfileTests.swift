import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// A keyboard that moves the caret by the offset on its key's label, as a cursor-walking keyboard does.
final class MovingKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [
            ["-1", "-4", "-11", "+2", "+4"].map { Key(code: .input, label: $0) },
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

    private func host(_ platform: PlatformProfile, cursor: Int) throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(MovingKeyboard.self, document: Self.emoji, cursor: cursor, platform: platform)
        try host.show()
        return host
    }

    private func notes(_ host: KeyboardTestHost) -> [String] {
        host.log.compactMap { if case .platformNote(let note) = $0 { note } else { nil } }
    }

    @Test func underIOSAMoveCountsUTF16UnitsAndUnderExactCharacters() async throws {
        // From after 👍🏽 (Character 2), back 4: over 👍🏽 alone on iOS, to the start (clamped) exactly.
        let ios = try host(.ios, cursor: 2)
        try ios.tap("-4")
        await ios.settle()
        #expect(ios.cursor == 1)
        let exact = try host(.exact, cursor: 2)
        try exact.tap("-4")
        await exact.settle()
        #expect(exact.cursor == 0)

        // From the end, back 11 over the family and one more: 1 + 11 = 12 units is two Characters.
        let family = try host(.ios, cursor: 5)
        try family.tap("-1")
        try family.tap("-11")
        await family.settle()
        #expect(family.cursor == 3)
        #expect(notes(family).isEmpty)
        #expect(family.document == Self.emoji)  // a move changes no text
    }

    @Test func aMoveEndingInsideACharacterStopsBeforeItAndSaysSo() async throws {
        // From the end, back 4: over "c" (1 unit), then 3 of the family's 11 — inside it. This host's
        // choice: the caret stays on the side it came from, and a note says what happened.
        let ios = try host(.ios, cursor: 5)
        try ios.tap("-4")
        await ios.settle()
        #expect(ios.cursor == 4)
        #expect(notes(ios) == [
            "adjustTextPosition(-4) would end inside \"👨‍👩‍👧‍👦\" (11 UTF-16 units); this host stops the caret before it",
        ])
        // Forward by 2 from the start: over "a", then 1 of 👍🏽's 4.
        let forward = try host(.ios, cursor: 0)
        try forward.tap("+2")
        await forward.settle()
        #expect(forward.cursor == 1)
        #expect(notes(forward).count == 1)
        // The same taps under exact move by Characters and say nothing.
        let exact = try host(.exact, cursor: 5)
        try exact.tap("-4")
        await exact.settle()
        #expect(exact.cursor == 1)
        #expect(notes(exact).isEmpty)
    }

    @Test func aMovePastEitherEndStopsThere() async throws {
        let start = try host(.ios, cursor: 1)
        try start.tap("-11")
        await start.settle()
        #expect(start.cursor == 0)
        let end = try host(.ios, cursor: 4)
        try end.tap("+4")
        await end.settle()
        #expect(end.cursor == 5)
    }

    @Test func profilesAreFoundByName() {
        #expect(PlatformProfile.all.map(\.description) == ["exact", "ios"])
        #expect(PlatformProfile(named: "ios") == .ios)
        #expect(PlatformProfile(named: "iOS") == nil)
    }
}
