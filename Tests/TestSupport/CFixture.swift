import Foundation
import Synchronization

/// Builds the C fixture extension (`Tests/KeyboardHostTests/Fixtures/c_extension.c`) with the system C
/// compiler, once per set of macros, into a temporary folder.
public enum CFixture {
    public enum Output { case sharedLibrary, object }

    private static let built = Mutex<[String: String]>([:])
    private static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("kbhost-fixtures-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// The path of the fixture built with `defines` (e.g. `["FIXTURE_NULL_ENTRY"]`).
    public static func build(_ name: String, defines: [String] = [], output: Output = .sharedLibrary) throws -> String {
        // Compiles one at a time: tests run in parallel and may ask for the same fixture at once.
        try built.withLock { built in
            if let path = built[name] { return path }
            let source = BuildProducts.packageRoot.appendingPathComponent("Tests/KeyboardHostTests/Fixtures/c_extension.c")
            let include = BuildProducts.packageRoot.appendingPathComponent("Sources/KeyboardExtensionABI/include")
            let path = folder.appendingPathComponent(output == .object ? "\(name).o" : "lib\(name).so").path
            var arguments = ["-std=c11", "-Wall", "-Werror", "-fPIC", "-I", include.path]
            arguments += output == .object ? ["-c"] : ["-shared"]
            arguments += defines.map { "-D\($0)" } + ["-o", path, source.path]
            let result = try Command.run("/usr/bin/env", ["cc"] + arguments)
            guard result.status == 0 else { throw CompileError(output: result.standardError) }
            built[name] = path
            return path
        }
    }

    public struct CompileError: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "cc failed: \(output)" }
    }
}

/// Runs a program to completion and collects what it printed.
public enum Command {
    public struct Result: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// Output goes to temporary files rather than pipes, so a chatty child can never block on a full
    /// pipe while the test waits for it.
    public static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout"), errorURL = folder.appendingPathComponent("stderr")
        let inputURL = folder.appendingPathComponent("stdin")
        try Data((input ?? "").utf8).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
            standardError: try String(contentsOf: errorURL, encoding: .utf8)
        )
    }
}
