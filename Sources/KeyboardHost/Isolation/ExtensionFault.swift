import Foundation

/// How an extension running in a child process failed, told in one line that names it and what
/// happened: "QWERTY crashed (SIGSEGV) during key_event". After a fault the instance is gone; the
/// host's text is as it was.
public struct ExtensionFault: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Error, Hashable, Sendable {
        /// The child died of a signal (SIGSEGV, SIGABRT for abort() and fatalError, SIGILL, …).
        case crashed(signal: Int32)
        /// The child was killed from outside (SIGKILL, SIGTERM sent by someone else).
        case killed(signal: Int32)
        /// The child exited by itself.
        case exited(status: Int32)
        /// A callback was not answered in time; the host killed the child.
        case hung(after: Duration)
        /// It sent more than the host takes: too many calls for one message, or a message too large.
        case flooded(String)
        /// It sent something that is not a message of the wire.
        case malformed(String)
        /// It used more memory than its limit allows (`--memory-limit`), as iOS kills a keyboard.
        case memoryLimit(bytes: Int)
        /// The child could not be started or could not load the extension.
        case couldNotStart(String)
    }

    /// The extension's name, as users see it.
    public let name: String
    public let kind: Kind
    /// The callback under way when it happened ("key_event"), if one was.
    public let during: String?
    /// The child's last lines of standard output and error (up to 200), for a log.
    public let standardError: [String]

    /// Why, as far as the child said, for a person: its last few lines of output that are not blank,
    /// without the stack trace Swift's runtime prints after a fatal error — the line before the trace
    /// ("File.swift:20: Fatal error: …") is the one that says what and where.
    public var lastWords: [String] {
        var lines = standardError
        if let trace = lines.lastIndex(where: { $0.hasPrefix("Current stack trace:") }) { lines = Array(lines[..<trace]) }
        return Array(lines.filter { !$0.allSatisfy(\.isWhitespace) }.suffix(5))
    }

    public init(name: String, kind: Kind, during: String? = nil, standardError: [String] = []) {
        self.name = name
        self.kind = kind
        self.during = during
        self.standardError = standardError
    }

    public var description: String {
        let when = during.map { " during \($0)" } ?? ""
        switch kind {
        case .crashed(let signal): return "\(name) crashed (\(Self.signalName(signal)))\(when)"
        case .killed(let signal): return "\(name) was killed (\(Self.signalName(signal)))\(when)"
        case .exited(let status): return "\(name) exited with status \(status)\(when)"
        case .hung(let after):
            return "\(name) did not answer \(during ?? "the host") within \(DurationText.text(after)); the host stopped it"
        case .flooded(let detail): return "\(name) flooded the host\(when) (\(detail)); the host stopped it"
        case .malformed(let detail): return "\(name) sent a malformed message\(when) (\(detail)); the host stopped it"
        case .memoryLimit(let bytes): return "\(name) went over its memory limit of \(bytes / 1_048_576) MB\(when); the host stopped it"
        case .couldNotStart(let reason): return "\(name) could not be started: \(reason)"
        }
    }

    /// SIGSEGV, SIGABRT, …: the name a user looks up.
    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
