import ArgumentParser
import KeyboardHost

/// What `run` and `repl` add to ``HostOptions``: how their sessions run — as which platform gives a
/// keyboard its text (the profile, the windows the proxy sees, the latency of posted edits), and
/// whether every call is traced.
struct SessionOptions: ParsableArguments {
    @Option(name: .customLong("platform"), help: ArgumentHelp(
        "Behave as this platform gives a keyboard its text: exact (this host: Characters, applied exactly), ios (a caret move counts UTF-16 units; no textDidChange for the keyboard's own edits), android (a caret move and a delete count UTF-16 units; windows of 1024 characters) or wayland (windows of at most 4000 UTF-8 bytes). Default: exact.",
        valueName: "platform"
    ))
    var profile: PlatformProfile = .exact

    @Option(help: ArgumentHelp(
        "How much of the document the extension's proxy sees: \(ContextPolicy.forms). Default: the platform's (sentence; wayland under --platform wayland; characters:1024 under --platform android).",
        valueName: "policy"
    ), transform: { text in try ContextPolicy.parse(text) })
    var policy: ContextPolicy?

    /// The windows the proxy shows: `--policy`, else the platform's.
    var window: ContextPolicy { policy ?? profile.window }

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Milliseconds the host waits before applying what the extension posts, to emulate IPC. Default: the platform's (20 under --platform ios, else 0).",
        valueName: "ms"
    ))  // `-5` is a value here (then refused by validate), not an option
    var latency: Int?

    /// How long posted edits wait: `--latency`, else the platform's.
    var editLatency: Duration { latency.map { .milliseconds($0) } ?? profile.latency }

    @Option(help: ArgumentHelp(
        "Write every call between host and extension to this file, as JSON lines (for a bug report, or a golden test).",
        valueName: "file"
    ))
    var trace: String?

    /// The trace --trace asks for, made (emptied) now.
    @MainActor
    func makeTrace() throws -> CallTrace? {
        guard let trace else { return nil }
        do {
            return try CallTrace(path: trace)
        } catch {
            throw fail(error.description, ExitStatus.badArguments)
        }
    }

    func validate() throws {
        if let latency, latency < 0 { throw ValidationError("--latency must be 0 or more milliseconds, not \(latency)") }
    }
}
