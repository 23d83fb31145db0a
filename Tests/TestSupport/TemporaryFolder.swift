import Foundation

/// A folder of a test's own in the system's temporary folder, named after what it is for, and removed
/// with everything in it when the test lets go of it (a suite's property: when the test ends).
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init(_ purpose: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-\(purpose)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public var path: String { url.path }

    /// The URL of `name` in the folder.
    public func appendingPathComponent(_ name: String) -> URL { url.appendingPathComponent(name) }
}
