import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// The README's "Testing an extension" example, verbatim, so the front door stays true.
final class MyKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        let letters = "abcdefghijklmnopqrstuvwxyz".map { Key.input(String($0)) }
        return KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [
            SubKeyboard(mode: .letters, rows: [letters, [Key(code: .space, label: "space"), Key(code: .delete, label: "⌫")]]),
        ]))
    }
}

@Test @MainActor func typesAtTheCursor() async throws {
    let host = try KeyboardTestHost(MyKeyboard.self, document: "a dog", cursor: 2, policy: .sentence,
                                    latency: .milliseconds(30))
    try host.show()
    try await host.type("big ")                 // taps, applying posted edits after each
    #expect(host.document == "a big dog")
    host.userMovesCursor(to: 0)           // the user acting in the field
    #expect(host.notifications.suffix(2) == ["selectionWillChange", "selectionDidChange"])
    try host.tap("x")
    await host.advance(by: .milliseconds(29))   // not applied yet: 30 ms of emulated IPC
    #expect(host.document == "a big dog")
    await host.advance(by: .milliseconds(1))
    #expect(host.document == "xa big dog")
}

/// The README's "The whole document" snippet, in a keyboard.
final class ReadingKeyboard: KeyboardViewController {
    var outcome = ""

    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[.input("a")]])]))
    }

    func readAll() -> Task<Void, Never> {
        Task {
            do throws(FullDocumentContext.Error) {   // typed: the cases can be caught by name
                let context = try await readFullDocumentContext()
                print(context.fullDocumentContextBeforeInput.count, context.roundTrips)
                outcome = "read \(context.fullDocumentContextBeforeInput.count)"
            } catch .userCancelled {
                outcome = "the user typed"  // the user typed: leave it
            } catch {
                reportError("could not read the document: \(error)")
            }
        }
    }
}

/// `catch .userCancelled` catches a delete the user stopped midway, which carries what it deleted:
/// the match is by reason, not by equality.
@Test func aStoppedDeleteIsCaughtByItsReason() {
    func stopped() throws(FullDocumentContext.Error) { throw FullDocumentContext.Error(.userCancelled, deletedCharacters: 5) }
    var outcome = ""
    do {
        try stopped()
    } catch .documentChanged {
        outcome = "wrong reason"
    } catch .userCancelled {
        outcome = "caught"
    } catch {
        outcome = "missed: \(error)"
    }
    #expect(outcome == "caught")
    do {
        try stopped()
    } catch let error where error.reason == .userCancelled {
        outcome = "deleted \(error.deletedCharacters)"
    } catch {
        outcome = "missed"
    }
    #expect(outcome == "deleted 5")
}

@Test @MainActor func theReadmeSnippetReadsAndHandlesUserCancelled() async throws {
    let host = try KeyboardTestHost(ReadingKeyboard.self, document: "One. Two.", latency: .milliseconds(10))
    try host.show()
    let keyboard = try #require(host.controller as? ReadingKeyboard)
    let read = keyboard.readAll()
    await host.settle()
    await read.value
    #expect(keyboard.outcome == "read 9")

    let interrupted = keyboard.readAll()
    await Task.yield()
    try host.tap("a")
    await host.settle()
    await interrupted.value
    #expect(keyboard.outcome == "the user typed")
}

/// The DocC article "Testing against the platforms": one backspace takes 👍🏽 under every profile but
/// Android's, where it takes one UTF-16 unit of the four.
@Test(arguments: PlatformProfile.all) @MainActor
func deletesAnEmojiWithOneBackspace(_ platform: PlatformProfile) async throws {
    let host = try KeyboardTestHost(MyKeyboard.self, document: "ok 👍🏽", platform: platform)
    try host.show()
    try await host.type("{delete}")
    #expect(host.document == (platform == .android ? "ok 👍\u{FFFD}" : "ok "))
}
