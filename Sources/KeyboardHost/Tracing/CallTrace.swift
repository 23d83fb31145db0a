import Foundation
import KeyboardModel

/// Where a session writes every call between host and extension, both ways, as JSON lines: for bug
/// reports (what did the keyboard see, what did it send, in which order) and for golden tests. `kbhost
/// run --trace FILE` and `kbhost repl --trace FILE` make one; a ``KeyboardSession`` made with one
/// writes to it through a ``TracingConnection``, whichever transport (in process or isolated) it has.
///
/// One object per line, keys sorted:
///
///     {"action":"tap","call":"key_event","extension":"dev.kbhost.samples.hello","from":"host","n":7,"position":[0,1,2],"t":0}
///     {"call":"insert_text","extension":"dev.kbhost.samples.hello","from":"extension","n":8,"t":0,"text":"h"}
///     {"call":"returned","extension":"dev.kbhost.samples.hello","from":"extension","n":9,"of":"key_event","status":"ok","t":0}
///
/// `n` counts the lines from 1; `t` is the host's clock in nanoseconds (virtual time under `kbhost
/// run`, so a trace is the same on every run); `from` is who made the call. A host call that returns
/// something is followed, after what the extension called during it, by a `returned` line. The document's text is in
/// the snapshots: a trace of a secure field has each Character of its text as "⬤" (``redactsText``,
/// and whenever the extension asks for secure entry), and a license's secret is left out. Timers an
/// extension schedules are its own and not traced.
@MainActor
public final class CallTrace {
    /// Writes text as "⬤" per Character: set for a secure field (kbhost repl --secure).
    public var redactsText = false
    private let handle: FileHandle
    private var count = 0

    /// A trace written to `path`, made or emptied now.
    public init(path: String) throws(CallTraceError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CallTraceError(path: path, reason: String(cString: strerror(errno)))
        }
        self.handle = handle
    }

    /// Who made a call.
    public enum Side: String, Sendable { case host, `extension` }

    /// Writes one line: the call, its fields, who made it, when.
    func record(_ call: String, from side: Side, extension identifier: String, at time: Duration, _ fields: [String: JSONValue] = [:]) {
        count += 1
        var object = fields
        object["n"] = .number(Double(count))
        object["t"] = .number(Double(time.components.seconds) * 1e9 + Double(time.components.attoseconds / 1_000_000_000))
        object["from"] = .string(side.rawValue)
        object["extension"] = .string(identifier)
        object["call"] = .string(call)
        guard var line = try? Self.encoder.encode(JSONValue.object(object)) else { return }
        line.append(0x0A)
        handle.write(line)
    }

    /// `text`, or its Characters as "⬤" when text is redacted.
    func text(_ text: String, secure: Bool) -> JSONValue {
        .string(redactsText || secure ? String(repeating: "⬤", count: text.count) : text)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// The trace's file could not be made.
public struct CallTraceError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "--trace '\(path)': \(reason)" }
}
