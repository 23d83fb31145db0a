import Foundation
import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import PropertyBased
import Testing
import TestSupport

/// The full-document walks under the platforms, which have none of this host's extras (ABI section 7):
/// the SDK walks with `adjustTextPosition` and `deleteBackward` in the platform's units, and says
/// whether its result is certain (issue 14).
@Suite("Full document context under the platforms")
@MainActor
struct FullDocumentPlatformTests {
    static let platforms: [PlatformProfile] = [.ios, .android, .wayland]
    /// `nil`: the platform's own windows.
    static let policies: [ContextPolicy?] = [nil, nil, .characters(1), .characters(5), .utf8Bytes(3), .sentence, .paragraph, .unlimited]

    private static func host(_ text: String, _ platform: PlatformProfile, _ policy: ContextPolicy?, latency: Int) -> KeyboardTestHost {
        let host = try! KeyboardTestHost(WalkerKeyboard.self, document: text, policy: policy,
                                         latency: .milliseconds(latency), platform: platform)
        try! host.show()
        return host
    }

    /// Tallies of the property runs, for the figures of the issue's note (`exact` over all).
    static var tally = (reads: 0, exact: 0)

    @Test func aReadIsExactWheneverItSaysSoAndChangesNothing() async {
        await propertyCheck(
            count: 300, input: UnicodeSamples.document(pieces: 0...60), Gen.element(of: Self.platforms),
            Gen.element(of: Self.policies), Gen.int(in: 0...300), Gen.int(in: 0...2), Gen.int(in: 0...40)
        ) { text, platform, policy, start, length, latency in
            let host = Self.host(text, platform!, policy ?? nil, latency: latency)
            let lower = min(start, text.count)
            let selection = lower..<min(lower + length, text.count)
            host.userSelects(selection)
            host.clearLog()
            let result = await host.walk { try await $0.readFullDocumentContext() }
            guard case .success(let context) = result else {
                Issue.record("read failed under \(platform!): \(result)")
                return
            }
            Self.tally.reads += 1
            let characters = Array(text)
            let before = String(characters[..<selection.lowerBound]), after = String(characters[selection.upperBound...])
            if context.isExact {
                Self.tally.exact += 1
                #expect(context.fullDocumentContextBeforeInput.unicodeScalars.elementsEqual(before.unicodeScalars))
                #expect(context.fullDocumentContextAfterInput.unicodeScalars.elementsEqual(after.unicodeScalars))
            }
            // Without a selection, nothing is left unknown: every such read is exact.
            #expect(context.isExact == selection.isEmpty, "\(platform!), \(String(describing: policy ?? nil))")
            #expect(host.document.unicodeScalars.elementsEqual(text.unicodeScalars))
            #expect(host.selection == selection)
            // The platform's calls only: none of this host's extras.
            #expect(!host.log.contains { if case .posted(let operation) = $0 { operation.isExtra } else { false } })
        }
        #expect(Self.tally.exact > 0)
    }

    @Test func aDeleteDeletesEverythingAndCountsIt() async {
        await propertyCheck(
            count: 150, input: UnicodeSamples.document(pieces: 0...60), Gen.element(of: Self.platforms),
            Gen.element(of: Self.policies), Gen.int(in: 0...300), Gen.int(in: 0...2), Gen.int(in: 0...40)
        ) { text, platform, policy, start, length, latency in
            let host = Self.host(text, platform!, policy ?? nil, latency: latency)
            let lower = min(start, text.count)
            host.userSelects(lower..<min(lower + length, text.count))
            let result = await host.walk { try await $0.deleteFullDocumentContext() }
            #expect(host.document == "")
            guard case .success(let deletion) = result else {
                Issue.record("delete failed under \(platform!): \(result)")
                return
            }
            if deletion.isExact { #expect(deletion.deletedCharacters == text.count) }
        }
    }

    @Test func movesToEitherEndExactly() async {
        await propertyCheck(
            count: 150, input: UnicodeSamples.document(pieces: 0...40), Gen.element(of: Self.platforms),
            Gen.element(of: Self.policies), Gen.int(in: 0...200), Gen.bool
        ) { text, platform, policy, cursor, toEnd in
            let host = Self.host(text, platform!, policy ?? nil, latency: 5)
            host.userMovesCursor(to: cursor)
            let result = await host.walk { keyboard in
                if toEnd { try await keyboard.moveCursorToEndOfDocument() } else { try await keyboard.moveCursorToBeginningOfDocument() }
            }
            #expect((try? result.get()) != nil)
            #expect(host.cursor == (toEnd ? text.count : 0))
            #expect(host.document == text)
        }
    }

    /// Where a window before the caret is empty although text comes before it, a move and no move can
    /// look the same ("....", blank lines): the walk asks the end, which is certain.
    @Test(arguments: [
        "....", "\n\n\n", "\r\n\r\n\r\n", "a.\n\nb", ".\n.\n", "!?。\n", "\r\n", "x", "", "👍🏽.\n\n👨‍👩‍👧‍👦.",
    ])
    func runsOfBoundariesAreReadExactlyFromEveryCaret(_ text: String) async throws {
        for platform in Self.platforms {
            for cursor in 0...text.count {
                let host = try KeyboardTestHost(WalkerKeyboard.self, document: text, cursor: cursor, policy: .sentence, platform: platform)
                try host.show()
                let context = try await host.walk { try await $0.readFullDocumentContext() }.get()
                #expect(context.isExact)
                #expect(context.fullDocumentContextBeforeInput == String(text.prefix(cursor)), "\(platform) at \(cursor)")
                #expect(context.fullDocumentContextAfterInput == String(text.dropFirst(cursor)), "\(platform) at \(cursor)")
                #expect(host.cursor == cursor)
                #expect(host.document == text)
            }
        }
    }

    /// The same behaviours as under `exact` (FullDocumentTests): a tapped key lands where the caret
    /// was, a cancelled task puts the caret back.
    @Test(arguments: [PlatformProfile.ios, .android, .wayland])
    func aTappedKeyLandsWhereTheCaretWasAndACancelledReadPutsItBack(_ platform: PlatformProfile) async throws {
        let text = String(repeating: "One 👍🏽. Two! ", count: 20)
        for wait in [0, 25, 60, 95] {
            let host = try KeyboardTestHost(WalkerKeyboard.self, document: text, cursor: 100, latency: .milliseconds(20), platform: platform)
            try host.show()
            let walk = host.startWalk { try await $0.readFullDocumentContext() }
            await host.advance(by: .milliseconds(wait))
            try host.tap("a")
            await host.settle()
            #expect(await walk.value == .failure(.userCancelled))
            #expect(host.document == String(text.prefix(100)) + "a" + String(text.dropFirst(100)), "\(platform) after \(wait) ms")
        }
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: text, cursor: 100, latency: .milliseconds(20), platform: platform)
        try host.show()
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(70))
        walk.cancel()
        await host.settle()
        #expect(await walk.value == .failure(.cancelled))
        #expect(host.cursor == 100)
        #expect(host.document == text)
    }

    /// `run`'s JSON and a host command say whether the read was certain.
    @Test func aHostCommandSaysWhetherItIsExact() async throws {
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: "Yes. Or no?", cursor: 5, platform: .ios)
        try host.show()
        let read = host.send(.readFullDocument)
        await host.settle()
        let answer = await host.result(of: read)
        #expect(answer.exact == true)
        #expect(answer.before == "Yes. ")
        host.userSelects(0..<3)
        let selected = host.send(.readFullDocument)
        await host.settle()
        #expect(await host.result(of: selected).exact == false)
        let move = host.send(.moveToEnd)
        await host.settle()
        #expect(await host.result(of: move).exact == nil)
    }
}

/// Section 7's extras, held against an extension written in C: which platforms have them.
@Suite("The extras by platform, with a C extension")
@MainActor
struct PlatformExtrasTests {
    struct Seen {
        var selectionLocation: Int64
        var selectionLength: Int64
        var platform: UInt32
        var platformTraits: UInt32
    }

    @Test(arguments: [
        (PlatformProfile.exact, UInt32(0), UInt32(4)), (.ios, 1, 1), (.android, 2, 3), (.wayland, 3, 0),
    ])
    func onlyExactHasThemAndEverySnapshotSaysWhichPlatform(_ platform: PlatformProfile, code: UInt32, traits: UInt32) async throws {
        let path = try CFixture.build("extras", defines: ["FIXTURE_EXTRAS"])
        let host = try KeyboardTestHost(extensionAt: path, document: "abc", cursor: 3, isolation: .inProcess, platform: platform)
        let image = try #require(dlopen(path, RTLD_NOW | RTLD_NOLOAD))
        let seen = try #require(dlsym(image, "fixture_platform")).assumingMemoryBound(to: Seen.self)
        try host.show()
        #expect(seen.pointee.platform == code)
        #expect(seen.pointee.platformTraits == traits)
        #expect(seen.pointee.selectionLocation == (platform.offersExtras ? 3 : -1))
        #expect(seen.pointee.selectionLength == (platform.offersExtras ? 0 : -1))
        host.clearLog()
        try host.tap("b")  // set_selected_range(1, 0), delete_range(0, 1)
        await host.settle()
        if platform.offersExtras {
            #expect(host.document == "bc")
            #expect(host.cursor == 0)
        } else {
            #expect(host.document == "abc")
            #expect(host.cursor == 3)
            #expect(host.platformNotes.count == 2)
            #expect(host.platformNotes.first?.contains("which \(platform) does not offer") == true)
        }
    }
}
