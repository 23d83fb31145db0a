import Foundation
import KeyboardExtension
import Testing

@Suite("Key-position providers")
struct KeyPositionProviderTests {
    /// Counts fetches and hands out a different layout each time.
    final class Source: Sendable {
        let fetches = Locked(0)
        var provider: ClosureKeyPositionProvider {
            ClosureKeyPositionProvider { [self] in
                let count = fetches.withLock { $0 += 1; return $0 }
                return KeyboardLayout(subKeyboards: [SubKeyboard(mode: .numbers, rows: [[.input("\(count % 10)")]])])
            }
        }
    }

    final class Clock: Sendable {
        let base = ContinuousClock.now
        let elapsed = Locked(Duration.zero)
        var now: @Sendable () -> ContinuousClock.Instant { { [self] in base + elapsed.withLock { $0 } } }
    }

    private func label(_ layout: KeyboardLayout) -> String { layout.subKeyboards[0].rows[0][0].label }

    @Test func cachesRefreshesOnDemandAndClears() async throws {
        let source = Source()
        let caching = CachingKeyPositionProvider(source.provider)
        #expect(label(try await caching.fetchLayout()) == "1")
        #expect(label(try await caching.fetchLayout()) == "1")  // from the cache
        #expect(source.fetches.withLock { $0 } == 1)
        #expect(label(try await caching.refresh()) == "2")       // forced
        #expect(label(try await caching.fetchLayout()) == "2")
        await caching.clearCache()
        #expect(await caching.cachedLayout == nil)
        #expect(label(try await caching.fetchLayout()) == "3")
        #expect(source.fetches.withLock { $0 } == 3)
    }

    @Test func aCacheOlderThanItsMaximumAgeIsFetchedAgain() async throws {
        let source = Source(), clock = Clock()
        let caching = CachingKeyPositionProvider(source.provider, maximumAge: .seconds(300), now: clock.now)
        _ = try await caching.fetchLayout()
        clock.elapsed.withLock { $0 = .seconds(299) }
        #expect(label(try await caching.fetchLayout()) == "1")
        clock.elapsed.withLock { $0 = .seconds(300) }
        #expect(label(try await caching.fetchLayout()) == "2")
    }

    @Test func aFailedFetchKeepsTheCacheAndSaysWhy() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pad-\(UUID()).json").path
        try KeyboardLayout.numericPad.json().write(to: URL(fileURLWithPath: path))
        let caching = CachingKeyPositionProvider(FileKeyPositionProvider(path: path))
        #expect(try await caching.fetchLayout() == .numericPad)
        try "{\"subKeyboards\": 3}".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try await caching.refresh()
            Issue.record("a bad file should not refresh")
        } catch let error as LayoutFileError {
            #expect(error.description == "layout '\(path)': subKeyboards: expected an array")
        }
        #expect(await caching.cachedLayout == .numericPad)
        try FileManager.default.removeItem(atPath: path)
        await #expect(throws: LayoutFileError.unreadable(path: path, reason: "no such file")) { try await caching.refresh() }
    }

    @Test func aCommandsOutputIsTheLayout() async throws {
        let json = #"{"subKeyboards": [{"mode": "numbers", "rows": [[{"code": "input", "label": "7"}]]}]}"#
        let provider = CommandKeyPositionProvider("/bin/sh", "-c", "printf '%s' '\(json)'")
        #expect(label(try await provider.fetchLayout()) == "7")
        // Cached, it runs once.
        let caching = CachingKeyPositionProvider(provider)
        _ = try await caching.fetchLayout()
        #expect(label(try await caching.fetchLayout()) == "7")
    }

    @Test func aCommandThatFailsOrPrintsNoLayoutSaysWhich() async throws {
        await #expect {
            try await CommandKeyPositionProvider("/bin/sh", "-c", "echo 'no key service' >&2; exit 3").fetchLayout()
        } throws: { "\($0)" == "command '/bin/sh -c echo 'no key service' >&2; exit 3': exited with status 3: no key service" }
        await #expect {
            try await CommandKeyPositionProvider("/bin/sh", "-c", #"echo '{"subKeyboards": 1}'"#).fetchLayout()
        } throws: { "\($0)" == #"command '/bin/sh -c echo '{"subKeyboards": 1}'': printed no layout: subKeyboards: expected an array"# }
        await #expect {
            try await CommandKeyPositionProvider("/nonexistent/tool").fetchLayout()
        } throws: { "\($0)".hasPrefix("command '/nonexistent/tool': cannot start: ") }
    }
}
