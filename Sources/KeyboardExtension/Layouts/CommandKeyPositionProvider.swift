import Foundation

/// A layout printed by a command (its standard output, as layout JSON), run each time it is fetched:
/// a company's key-position tool, a script that asks a service. Wrap it in
/// ``CachingKeyPositionProvider`` so it runs once, not on every appearance.
///
/// The command is run directly (no shell), with the extension's environment. It fails with a
/// ``CommandKeyPositionError`` naming the command when it cannot start, exits with a status other than
/// 0 (with the first line it wrote to standard error), or prints something that is not a layout
/// (with the field, as for a layout file).
public struct CommandKeyPositionProvider: KeyPositionProvider {
    /// The executable's path and its arguments.
    public let arguments: [String]

    public init(_ executable: String, _ arguments: String...) {
        self.arguments = [executable] + arguments
    }

    public init(arguments: [String]) {
        self.arguments = arguments
    }

    private var shown: String { arguments.joined(separator: " ") }

    public func fetchLayout() async throws -> KeyboardLayout {
        let (status, output, errors) = try await Task.detached { [arguments, shown] in
            try Self.run(arguments, shown: shown)
        }.value
        guard status == 0 else {
            let firstLine = String(decoding: errors, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
            throw CommandKeyPositionError.failed(command: shown, status: status, message: firstLine)
        }
        do {
            return try KeyboardLayout(json: output, source: shown)
        } catch {
            switch error {
            case .invalid(_, let problem), .unreadable(_, let problem):
                throw CommandKeyPositionError.invalidLayout(command: shown, problem: problem)
            }
        }
    }

    /// Runs to the end, reading both outputs as they come (a full pipe would stop the command).
    private static func run(_ arguments: [String], shown: String) throws -> (Int32, Data, Data) {
        guard let executable = arguments.first else { throw CommandKeyPositionError.cannotStart(command: shown, reason: "no command") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CommandKeyPositionError.cannotStart(command: shown, reason: error.localizedDescription)
        }
        nonisolated(unsafe) var errorData = Data()
        let errorsRead = DispatchGroup()
        DispatchQueue.global().async(group: errorsRead) { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return (process.terminationStatus, outputData, errorData)
    }
}

public enum CommandKeyPositionError: Error, CustomStringConvertible {
    case cannotStart(command: String, reason: String)
    case failed(command: String, status: Int32, message: String?)
    case invalidLayout(command: String, problem: String)

    public var description: String {
        switch self {
        case .cannotStart(let command, let reason): "command '\(command)': cannot start: \(reason)"
        case .failed(let command, let status, let message):
            "command '\(command)': exited with status \(status)" + (message.map { ": \($0)" } ?? "")
        case .invalidLayout(let command, let problem): "command '\(command)': printed no layout: \(problem)"
        }
    }
}
