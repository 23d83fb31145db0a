import KeyboardExtension
import KeyboardTesting
import PropertyBased
import Testing
import TestSupport

/// The walker over random Unicode documents × every policy × cursor and selection × latency, and with
/// the user acting at a random moment.
@Suite("Full document context over random Unicode")
@MainActor
struct FullDocumentPropertyTests {
    static let policies: [ContextPolicy] = [
        .characters(1), .characters(5), .utf8Bytes(3), .utf8Bytes(16), .wayland, .sentence, .paragraph, .unlimited,
    ]

    private static func host(_ text: String, _ policy: ContextPolicy?, latency: Int) -> KeyboardTestHost {
        let host = try! KeyboardTestHost(WalkerKeyboard.self, document: text, policy: policy ?? .sentence,
                                         latency: .milliseconds(latency))
        try! host.show()
        return host
    }

    @Test func aReadIsExactAndChangesNothing() async {
        await propertyCheck(
            count: 200, input: UnicodeSamples.document(pieces: 0...60), Gen.element(of: Self.policies),
            Gen.int(in: 0...300), Gen.int(in: 0...4), Gen.int(in: 0...40)
        ) { text, policy, start, length, latency in
            let host = Self.host(text, policy, latency: latency)
            let lower = min(start, text.count)
            let selection = lower..<min(lower + length, text.count)
            host.userSelects(selection)
            let identifier = host.documentIdentifier

            let result = await host.walk { try await $0.readFullDocumentContext() }
            guard case .success(let context) = result else {
                Issue.record("read failed: \(result)")
                return
            }
            let characters = Array(text)
            #expect(context.fullDocumentContextBeforeInput.unicodeScalars.elementsEqual(String(characters[..<selection.lowerBound]).unicodeScalars))
            #expect((context.selectedText ?? "") == String(characters[selection]))
            #expect(context.fullDocumentContextAfterInput.unicodeScalars.elementsEqual(String(characters[selection.upperBound...]).unicodeScalars))
            #expect(host.document.unicodeScalars.elementsEqual(text.unicodeScalars))
            #expect(host.selection == selection)
            #expect(host.documentIdentifier == identifier)
            #expect(context.roundTrips <= windowCount(text, policy ?? .sentence) + 3)
        }
    }

    @Test func aDeleteDeletesEverything() async {
        await propertyCheck(
            count: 100, input: UnicodeSamples.document(pieces: 0...60), Gen.element(of: Self.policies),
            Gen.int(in: 0...300), Gen.int(in: 0...40)
        ) { text, policy, cursor, latency in
            let host = Self.host(text, policy, latency: latency)
            host.userMovesCursor(to: cursor)
            let result = await host.walk { try await $0.deleteFullDocumentContext() }
            #expect(host.document == "")
            guard case .success(let deletion) = result else {
                Issue.record("delete failed: \(result)")
                return
            }
            #expect(deletion.deletedCharacters == text.count)
            #expect(deletion.roundTrips <= windowCount(text, policy ?? .sentence) + 3)
        }
    }

    /// The same walks asked for by the host (a host command, answered over the wire), with the keyboard
    /// in a child process of its own: the text crosses the wire both ways, and must come back exact.
    @Test func aReadAndADeleteTheHostAsksForAreExactInAChildProcess() async {
        await propertyCheck(
            count: 40, input: UnicodeSamples.document(pieces: 0...60), Gen.element(of: Self.policies),
            Gen.int(in: 0...300), Gen.int(in: 0...20)
        ) { text, policy, cursor, latency in
            let host = try! KeyboardTestHost(WalkerKeyboard.self, document: text, policy: policy ?? .sentence,
                                             latency: .milliseconds(latency), isolation: .process)
            try! host.show()
            host.userMovesCursor(to: cursor)
            let position = host.cursor
            let read = host.send(.readFullDocument)
            await host.settle()
            let answer = await host.result(of: read)
            let characters = Array(text)
            #expect(answer.succeeded)
            #expect(answer.before?.unicodeScalars.elementsEqual(String(characters[..<position]).unicodeScalars) == true)
            #expect(answer.after?.unicodeScalars.elementsEqual(String(characters[position...]).unicodeScalars) == true)
            #expect(host.document.unicodeScalars.elementsEqual(text.unicodeScalars))
            #expect(host.cursor == position)

            let delete = host.send(.deleteFullDocument)
            await host.settle()
            #expect(await host.result(of: delete).deletedCharacters == text.count)
            #expect(host.document == "")
            #expect(host.fault == nil)
        }
    }

    /// What the user does at a random moment of a walk.
    enum UserAction: CaseIterable, Sendable {
        case movesCursor, selects, tapsNoop, tapsLetter, typesInTheField, submits
    }

    @Test func theUserActingDuringAReadLeavesTheDocumentAsTheUserMadeIt() async {
        await propertyCheck(
            count: 150, input: UnicodeSamples.document(pieces: 20...60), Gen.element(of: Self.policies),
            Gen.int(in: 0...200), Gen.int(in: 5...30), Gen.int(in: 0...12), Gen.element(of: UserAction.allCases)
        ) { text, policy, cursor, latency, wait, action in
            let host = Self.host(text, policy, latency: latency)
            host.userMovesCursor(to: cursor)
            let origin = host.cursor
            let walk = host.startWalk { try await $0.readFullDocumentContext() }
            await host.advance(by: .milliseconds(10 * wait))
            let finishedFirst = host.walkerKeyboard.activeWalkerIsIdle
            switch action! {
            case .movesCursor: host.userMovesCursor(to: 1)
            case .selects: host.userSelects(0..<2)
            case .tapsNoop: try! host.tap("noop")
            case .tapsLetter: try! host.tap("a")
            case .typesInTheField: host.userTypes("z")
            case .submits: host.userSubmits()
            }
            await host.settle()
            let result = await walk.value

            // Either the exact text or a typed error: never a wrong text.
            switch result {
            case .success(let context):
                #expect((context.fullDocumentContextBeforeInput + context.fullDocumentContextAfterInput).unicodeScalars.elementsEqual(text.unicodeScalars))
            case .failure(let error):
                #expect(!finishedFirst)
                let expected: FullDocumentContext.Error.Reason = action == .submits ? .documentChanged : .userCancelled
                #expect(error.reason == expected)
            }
            // The document is what the user's action made of it, and nothing else.
            let original = Array(text)
            switch action! {
            case .movesCursor, .selects, .tapsNoop:
                #expect(host.document.unicodeScalars.elementsEqual(text.unicodeScalars))
            case .tapsLetter:
                // The walk put the caret back before the key's text: it lands where the caret was.
                let expected = String(original[..<origin]) + "a" + String(original[origin...])
                #expect(host.document.unicodeScalars.elementsEqual(expected.unicodeScalars))
            case .typesInTheField:
                // Typed wherever the caret was at that moment: the original with a "z" at one of its
                // Character boundaries (it may join the Character after it, as before a lone mark).
                let typedSomewhere = (0...original.count).contains { boundary in
                    (String(original[..<boundary]) + "z" + String(original[boundary...])).unicodeScalars
                        .elementsEqual(host.document.unicodeScalars)
                }
                #expect(typedSomewhere)
            case .submits:
                #expect(host.document == "")
            }
        }
    }

    @Test func theUserActingDuringADeleteStopsItCleanly() async {
        await propertyCheck(
            count: 150, input: UnicodeSamples.document(pieces: 20...60), Gen.element(of: Self.policies),
            Gen.int(in: 5...30), Gen.int(in: 0...12), Gen.element(of: [UserAction.movesCursor, .selects, .tapsNoop, .tapsLetter])
        ) { text, policy, latency, wait, action in
            let host = Self.host(text, policy, latency: latency)
            let walk = host.startWalk { try await $0.deleteFullDocumentContext() }
            await host.advance(by: .milliseconds(10 * wait))
            switch action! {
            case .movesCursor: host.userMovesCursor(to: 0)
            case .selects: host.userSelects(0..<0)
            case .tapsNoop: try! host.tap("noop")
            default: try! host.tap("a")
            }
            await host.settle()
            let deleted: Int
            switch await walk.value {
            case .success(let deletion): deleted = deletion.deletedCharacters
            case .failure(let error):
                #expect(error.reason == .userCancelled)
                deleted = error.deletedCharacters
            }
            // The deletion so far is the only change besides the user's: the start of the text is left.
            let left = String(Array(text).prefix(text.count - deleted))
            if action == .tapsLetter {
                #expect(host.document.unicodeScalars.elementsEqual((left + "a").unicodeScalars) || deleted == text.count && host.document == "a")
            } else {
                #expect(host.document.unicodeScalars.elementsEqual(left.unicodeScalars))
            }
        }
    }
}

extension WalkerKeyboard {
    /// Whether no walk is running (a finished walk has cleared itself).
    var activeWalkerIsIdle: Bool { !isWalkingFullDocument }
}
