import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// The checker an author runs on a walker of their own (``WalkChecker``), run on this SDK's walkers —
/// which pass it under every profile — and on the anchor, whose UTF-16 slip under iOS it must find.
@Suite("The walk checker")
@MainActor
struct WalkCheckerTests {
    @Test func theSDKsReaderPassesUnderEveryProfile() async {
        await WalkChecker.read(WalkerKeyboard.self, count: 60) { keyboard in
            let context = try await keyboard.readFullDocumentContext()
            return (context.fullDocumentContextBeforeInput, context.fullDocumentContextAfterInput)
        }
    }

    @Test func theSDKsDeleteAndMovesPassUnderEveryProfile() async {
        await WalkChecker.delete(WalkerKeyboard.self, count: 40) { _ = try await $0.deleteFullDocumentContext() }
        await WalkChecker.move(WalkerKeyboard.self, toEnd: true, count: 40) { try await $0.moveCursorToEndOfDocument() }
        await WalkChecker.move(WalkerKeyboard.self, toEnd: false, count: 40) { try await $0.moveCursorToBeginningOfDocument() }
    }

    @Test func aRoutineThatWaitsForWhatNeverComesIsToldApartFromOneThatSleeps() async throws {
        let host = try KeyboardTestHost(WalkerKeyboard.self)
        try host.show()
        let keyboard = host.walkerKeyboard
        // A sleep on the keyboard's clock ends: the host's clock is moved on to it, in no real time.
        let slept = await host.runToCompletion { () -> Duration in
            let start = keyboard.clock.now
            try? await keyboard.clock.sleep(for: .seconds(5))
            return start.duration(to: keyboard.clock.now)
        }
        #expect(slept == .seconds(5))
        // A wait on something that never comes, with no timer to move to: nil, and the task cancelled.
        let (never, continuation) = AsyncStream<Int>.makeStream()  // nothing is ever sent on it
        let waited = await host.runToCompletion { () -> Int in
            for await _ in never {}  // ends only when the task is cancelled
            return 1
        }
        #expect(waited == nil)
        withExtendedLifetime(continuation) {}
        await host.settle()
        try host.assertQuiet()
    }

    @Test func itFindsTheAnchorsSlipUnderIOS() async {
        // The anchor moves by Characters where iOS counts UTF-16 units: a document with an emoji before
        // the caret is enough, and the checker reports one such case.
        await withKnownIssue {
            await WalkChecker.read(WalkerKeyboard.self, profiles: [.ios], count: 100) { keyboard in
                let reading = try await FixedSleepReader.standard.read(keyboard)
                return (reading.before, reading.after)
            }
        }
    }

    @Test func itFindsTheAnchorsGuessAtBoundariesInARow() async {
        // Under sentence windows, sentence ends or line breaks in a row ("...", "\n\n") show the same
        // windows at each step over them: the anchor takes that for "nothing new" and stops early.
        await withKnownIssue {
            await WalkChecker.read(WalkerKeyboard.self, profiles: [.exact], count: 100) { keyboard in
                let reading = try await FixedSleepReader.standard.read(keyboard)
                return (reading.before, reading.after)
            }
        }
    }
}
