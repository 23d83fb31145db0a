#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an extension takes its layout from when it is not written in its code: a file, a command, a
/// service — as the safe-keyboard SDKs' key-position providers do. Wrap one in
/// ``CachingKeyPositionProvider`` to fetch once and refresh on demand.
public protocol KeyPositionProvider: Sendable {
    func fetchLayout() async throws -> KeyboardLayout
}

/// A layout read from a JSON file (`KeyboardLayout(contentsOfFile:)`) each time it is fetched.
public struct FileKeyPositionProvider: KeyPositionProvider {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func fetchLayout() async throws -> KeyboardLayout {
        try KeyboardLayout(contentsOfFile: path)
    }
}

/// A layout from any async function: a command's output, a service's answer.
public struct ClosureKeyPositionProvider: KeyPositionProvider {
    private let fetch: @Sendable () async throws -> KeyboardLayout

    public init(_ fetch: @escaping @Sendable () async throws -> KeyboardLayout) {
        self.fetch = fetch
    }

    public func fetchLayout() async throws -> KeyboardLayout {
        try await fetch()
    }
}

/// Fetches from another provider once and answers from its cache until the cache is older than
/// `maximumAge` (if given), a refresh is forced, or the cache is cleared. A failed fetch leaves the
/// cache as it was.
public actor CachingKeyPositionProvider: KeyPositionProvider {
    private let source: any KeyPositionProvider
    private let maximumAge: Duration?
    private let now: @Sendable () -> ContinuousClock.Instant
    private var cache: (layout: KeyboardLayout, fetched: ContinuousClock.Instant)?

    /// - Parameters:
    ///   - source: where layouts are fetched from.
    ///   - maximumAge: how long a cached layout is used before it is fetched again; `nil`: until a
    ///     refresh or ``clearCache()``.
    ///   - now: the clock, for tests; real time by default.
    public init(
        _ source: any KeyPositionProvider, maximumAge: Duration? = nil,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.source = source
        self.maximumAge = maximumAge
        self.now = now
    }

    /// The cached layout, fetching it first if there is none or it is too old.
    public func fetchLayout() async throws -> KeyboardLayout {
        if let cache, maximumAge.map({ now() - cache.fetched < $0 }) ?? true {
            return cache.layout
        }
        return try await refresh()
    }

    /// Fetches afresh whatever the cache holds.
    @discardableResult
    public func refresh() async throws -> KeyboardLayout {
        let layout = try await source.fetchLayout()
        cache = (layout, now())
        return layout
    }

    public func clearCache() {
        cache = nil
    }

    public var cachedLayout: KeyboardLayout? { cache?.layout }
}
