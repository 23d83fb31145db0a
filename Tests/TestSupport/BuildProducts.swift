import Foundation

/// Where SwiftPM put what it built: the test binary's own folder (`.build/<triple>/debug`), which also
/// holds `kbhost` and every sample's `lib<Name>.so` — `swift build` and `swift test` build them all.
public enum BuildProducts {
    public static let directory: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }()

    /// The package's root folder, from this file's place in it.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built shared library of a sample, e.g. `sample("HelloKeyboard")`.
    public static func sample(_ name: String) throws -> String {
        try existing(directory.appendingPathComponent("lib\(name).so").path)
    }

    /// The built `kbhost` executable.
    public static func kbhost() throws -> String {
        try existing(directory.appendingPathComponent("kbhost").path)
    }

    private static func existing(_ path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw MissingProduct(path: path) }
        return path
    }

    public struct MissingProduct: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) was not built; run `swift build` before `swift test`" }
    }
}
