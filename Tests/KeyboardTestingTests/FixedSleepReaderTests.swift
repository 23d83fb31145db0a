import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing

/// Ours beside the anchor (``FixedSleepReader``, a reader as the commercial SDKs write one): the same
/// documents, profiles and latencies; what each read, where each left the caret, and how long each took
/// on the host's clock — what it would take on a device.
@Suite("The anchor: a fixed-sleep reader beside ours")
@MainActor
struct FixedSleepReaderTests {
    static let document = "One two. Three 👍🏽 four!\nFive 👨‍👩‍👧‍👦 six. Seven"
    static let cursor = 20  // inside "four": text, emoji and sentence ends on both sides

    struct Outcome {
        let before: String, after: String, cursor: Int, elapsed: Duration
    }

    /// Runs `read` as the keyboard's task on a fresh host, to its end (``KeyboardTestHost/runToCompletion(_:)``).
    private func outcome(
        _ platform: PlatformProfile, latency: Duration,
        _ read: @escaping @MainActor (WalkerKeyboard) async throws -> (before: String, after: String)
    ) async throws -> Outcome {
        let host = try KeyboardTestHost(
            WalkerKeyboard.self, document: Self.document, cursor: Self.cursor, latency: latency, platform: platform
        )
        try host.show()
        let keyboard = host.walkerKeyboard
        let ended = await host.runToCompletion { @MainActor () -> Result<(String, String, Duration), any Error> in
            let start = keyboard.clock.now
            do {
                let (before, after) = try await read(keyboard)
                return .success((before, after, start.duration(to: keyboard.clock.now)))
            } catch {
                return .failure(error)
            }
        }
        let (before, after, elapsed) = try #require(ended).get()
        #expect(host.document == Self.document)  // neither ever changes the text
        return Outcome(before: before, after: after, cursor: host.cursor, elapsed: elapsed)
    }

    private func ours(_ platform: PlatformProfile, latency: Duration) async throws -> Outcome {
        try await outcome(platform, latency: latency) { keyboard in
            let context = try await keyboard.readFullDocumentContext()
            return (context.fullDocumentContextBeforeInput, context.fullDocumentContextAfterInput)
        }
    }

    private func anchor(_ reader: FixedSleepReader, _ platform: PlatformProfile, latency: Duration) async throws -> Outcome {
        try await outcome(platform, latency: latency) { keyboard in
            let reading = try await reader.read(keyboard)
            return (reading.before, reading.after)
        }
    }

    private func isExact(_ outcome: Outcome) -> Bool {
        outcome.before + outcome.after == Self.document && outcome.before.count == Self.cursor && outcome.cursor == Self.cursor
    }

    @Test func whereBothCountCharactersBothAreExactAndOursIsFaster() async throws {
        // iOS's IPC latency, the anchor's standard sleep above it: its best case.
        let ours = try await ours(.exact, latency: .milliseconds(30))
        let anchor = try await anchor(.standard, .exact, latency: .milliseconds(30))
        #expect(isExact(ours))
        #expect(isExact(anchor))
        #expect(ours.elapsed < anchor.elapsed)
    }

    @Test func underIOSTheAnchorCountsCharactersWhereTheCaretMovesByUTF16Units() async throws {
        let ours = try await ours(.ios, latency: .milliseconds(30))
        let anchor = try await anchor(.standard, .ios, latency: .milliseconds(30))
        #expect(isExact(ours))
        #expect(!isExact(anchor))
    }

    @Test func aSleepShorterThanTheProxyReadsStaleWindows() async throws {
        let ours = try await ours(.exact, latency: .milliseconds(30))
        let anchor = try await anchor(.fast, .exact, latency: .milliseconds(30))
        #expect(isExact(ours))
        #expect(!isExact(anchor))
    }
}
