import Foundation

/// A program running in a real pseudo-terminal under tmux, for end-to-end tests: type into it, read
/// its screen. Each terminal has a tmux server of its own, so tests never touch a user's sessions, and
/// tests running in parallel never race to start (or outlive) a shared server.
public final class Tmux: @unchecked Sendable {
    public let name: String
    private let socket: String

    /// Starts `command` (run by the shell) in a `width` × `height` terminal. When it ends, the pane
    /// shows `EXIT=<status>`.
    public init(_ command: String, width: Int = 100, height: Int = 30) throws {
        name = "t\(UUID().uuidString.prefix(8))"
        socket = "kbhost-tests-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
        try tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
                  "\(command); echo EXIT=$?; sleep 60"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Types text literally.
    public func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Presses keys by tmux's names: "Enter", "Left", "BSpace", "C-x", "C-c", "C-d", "Up" …
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The process id of the pane's shell (the program under test is its child).
    public func panePID() throws -> Int32 {
        Int32(try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The screen as text, one line per row.
    public func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// The screen and the scrollback above it (what the program printed above itself), one line per row.
    public func screenAndScrollback() throws -> String {
        try tmux(["capture-pane", "-p", "-S", "-", "-t", name])
    }

    /// Where the terminal's cursor is: column and row from 0.
    public func cursor() throws -> (column: Int, row: Int) {
        let numbers = try tmux(["display-message", "-p", "-t", name, "#{cursor_x} #{cursor_y}"])
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2 else { throw Failure(arguments: ["display-message"], output: "no cursor position") }
        return (numbers[0], numbers[1])
    }

    /// Waits until the terminal's cursor is at `column` (an event's effect that shows nowhere else,
    /// such as a caret move); fails after `seconds` with the screen.
    public func waitForCursor(_ what: String, column: Int, seconds: Double = 15) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try cursor().column == column { return }
            usleep(50_000)
        }
        throw Timeout(what: what + " (the cursor at column \(column), not \(try cursor().column))", screen: try screen())
    }

    /// Waits until the screen satisfies `condition`, and returns it; fails after `seconds` with the
    /// screen as it was, so a failure shows what the user would have seen.
    @discardableResult
    public func waitFor(_ what: String, seconds: Double = 15, scrollback: Bool = false, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try scrollback ? screenAndScrollback() : screen()
            if condition(last) { return last }
            usleep(50_000)
        }
        throw Timeout(what: what, screen: last)
    }

    public struct Timeout: Error, CustomStringConvertible {
        public let what: String
        public let screen: String
        public var description: String { "timed out waiting for \(what); the screen was:\n\(screen)" }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try Command.run("/usr/bin/env", ["tmux", "-L", socket] + arguments)
        guard result.status == 0 else { throw Failure(arguments: arguments, output: result.standardError) }
        return result.standardOutput
    }

    public struct Failure: Error, CustomStringConvertible {
        public let arguments: [String]
        public let output: String
        public var description: String { "tmux \(arguments.joined(separator: " ")) failed: \(output)" }
    }
}
