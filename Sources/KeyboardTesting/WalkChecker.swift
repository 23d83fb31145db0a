import KeyboardExtension
import KeyboardHost
import PropertyBased
import Testing

/// Checks a cursor-walking routine of your keyboard's own — a whole-document read, a delete, a move to
/// an end — against generated documents (``UnicodeSamples``: ZWJ emoji, flags, skin tones, CRLF,
/// combining marks, Hangul, Indic conjuncts, empty lines) and caret positions, under every platform
/// profile, with iOS's IPC latency. Call it in a test; the first failing case is reported as an issue
/// of that test with its document, profile and caret, and, with Swift Testing's `.shrinking` trait (on
/// by default with Swift 6.2 and later), shrunk to a small one:
///
/// ```swift
/// @Test func myReaderReadsEverything() async {
///     await WalkChecker.read(MyKeyboard.self) { keyboard in
///         try await keyboard.readEverything()        // your routine: (before, after)
///     }
/// }
/// ```
///
/// Your routine runs as your keyboard's task; it may sleep on the keyboard's `clock` (the checker moves
/// the host's clock on from timer to timer until it ends, in no real time). A routine that never ends —
/// it waits on something that does not come — fails the case.
@MainActor
public enum WalkChecker {
    /// The latency every case runs with: iOS's IPC, about 30 ms.
    public static let latency = Duration.milliseconds(30)

    /// Checks that `routine`, from any caret, gives back the text before and after the caret exactly,
    /// leaves the document as it was and puts the caret back.
    public static func read<Keyboard: KeyboardViewController>(
        _ keyboard: Keyboard.Type, profiles: [PlatformProfile] = PlatformProfile.all, count: Int = 100,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ routine: @escaping @MainActor (Keyboard) async throws -> (before: String, after: String)
    ) async {
        await check(keyboard, profiles, count, sourceLocation, routine) { text, cursor, host, result in
            let characters = Array(text)
            #expect(result.before == String(characters[..<cursor]), "the text before the caret", sourceLocation: sourceLocation)
            #expect(result.after == String(characters[cursor...]), "the text after the caret", sourceLocation: sourceLocation)
            #expect(host.document == text, "the document is unchanged", sourceLocation: sourceLocation)
            #expect(host.cursor == cursor, "the caret is back", sourceLocation: sourceLocation)
        }
    }

    /// Checks that `routine`, from any caret, deletes the whole document.
    public static func delete<Keyboard: KeyboardViewController>(
        _ keyboard: Keyboard.Type, profiles: [PlatformProfile] = PlatformProfile.all, count: Int = 100,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ routine: @escaping @MainActor (Keyboard) async throws -> Void
    ) async {
        await check(keyboard, profiles, count, sourceLocation, routine) { _, _, host, _ in
            #expect(host.document == "", "the document is empty", sourceLocation: sourceLocation)
        }
    }

    /// Checks that `routine`, from any caret, moves the caret to the end (`toEnd`) or to the start of
    /// the document, and changes no text.
    public static func move<Keyboard: KeyboardViewController>(
        _ keyboard: Keyboard.Type, toEnd: Bool, profiles: [PlatformProfile] = PlatformProfile.all, count: Int = 100,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ routine: @escaping @MainActor (Keyboard) async throws -> Void
    ) async {
        await check(keyboard, profiles, count, sourceLocation, routine) { text, _, host, _ in
            #expect(host.document == text, "the document is unchanged", sourceLocation: sourceLocation)
            #expect(host.cursor == (toEnd ? text.count : 0), toEnd ? "the caret is at the end" : "the caret is at the start", sourceLocation: sourceLocation)
        }
    }

    /// One property: a generated document, a profile and a caret; `routine` run to its end on a fresh
    /// host; `verify` given what it returned.
    private static func check<Keyboard: KeyboardViewController, Result: Sendable>(
        _ keyboard: Keyboard.Type, _ profiles: [PlatformProfile], _ count: Int, _ sourceLocation: SourceLocation,
        _ routine: @escaping @MainActor (Keyboard) async throws -> Result,
        verify: @MainActor (String, Int, KeyboardTestHost, Result) -> Void
    ) async {
        let property = { @MainActor (text: String, profile: PlatformProfile?, position: Int) async in
            let profile = profile ?? .exact
            let cursor = min(position, text.count)
            let host: KeyboardTestHost
            do {
                host = try KeyboardTestHost(keyboard, document: text, cursor: cursor, latency: latency, platform: profile)
                try host.show()
            } catch {
                Issue.record("the keyboard could not be shown: \(error)", sourceLocation: sourceLocation)
                return
            }
            guard let controller = host.controller as? Keyboard else {
                Issue.record("the host's keyboard is not a \(Keyboard.self)", sourceLocation: sourceLocation)
                return
            }
            let outcome = await host.runToCompletion { () -> Swift.Result<Result, WalkError> in
                do { return .success(try await routine(controller)) } catch { return .failure(WalkError(description: "\(error)")) }
            }
            switch outcome {
            case nil:
                Issue.record("the routine did not end under \(profile) (it waits on something that does not come)", sourceLocation: sourceLocation)
            case .failure(let error)?:
                Issue.record("the routine threw under \(profile): \(error)", sourceLocation: sourceLocation)
            case .success(let result)?:
                verify(text, cursor, host, result)
            }
            host.hide()
            await host.settle()
        }
        await propertyCheck(
            count: count, input: UnicodeSamples.document(pieces: 0...40), Gen.element(of: profiles), Gen.int(in: 0...200),
            perform: property, sourceLocation: sourceLocation
        )
    }

    private struct WalkError: Error, CustomStringConvertible {
        let description: String
    }
}
