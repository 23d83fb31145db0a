import ArgumentParser
import Foundation
import KeyboardHost

struct ReplCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Type in the terminal through keyboard extensions (the default command).",
        discussion: """
            The field is drawn a row per line around the cursor's; the active keyboard is drawn under it. \
            Typed keys tap the keyboard's keys (by position on a pad that asks for it, else by label, with \
            shift and mode keys as needed); Backspace taps its delete key; Enter its return key, which \
            submits the line. readline's motion and editing keys (arrows, Home/End, C-a, C-e, C-k, C-w, \
            ...) act on the field as the user; Up and Down move between lines. C-x starts a command: n \
            next keyboard, r read the whole document (and print it), d delete it, b/e move to its \
            beginning/end, t tap any key by its label (a toolbar's keys, keys that type no character), \
            p next context policy, i proxy inspector, l the event log, k show or hide the keyboard (and \
            show one that dismissed itself), h help. C-c clears the line; C-d on an empty line exits.

            Each keyboard runs in a process of its own (--isolation process): if it crashes, hangs or \
            floods the host, the line says so, your text stays, keys then type into the field directly, \
            and C-x R starts the keyboard again.

            When standard input is not a terminal, each line is typed through the keyboard and submitted, \
            and each submission is printed on standard output.

            \(ExitStatus.help)
            """
    )

    @Argument(help: "Extensions to load: lib<Name>.so, a bundle's folder, or an installed bundle's id; C-x n cycles through them. Default: those the configuration lists.")
    var paths: [String] = []

    @OptionGroup var host: HostOptions

    @OptionGroup var sessionOptions: SessionOptions

    @OptionGroup var seed: DocumentOptions

    @Flag(help: "A secure field: a dot per character, no history, nothing left in readline's memory.")
    var secure = false

    @Flag(help: "Do not draw the keyboard (C-x k shows it).")
    var hideKeyboard = false

    @Flag(help: "No colours (also when NO_COLOR is set or TERM is dumb).")
    var noColor = false

    func run() async throws {
        try await MainActor.run { try start() }
        // The main queue runs the REPL from here; it exits the process itself.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    @MainActor
    private func start() throws {
        let text = try seed.seed()
        let setup = try host.setup(platform: sessionOptions.profile)
        setup.trace = try sessionOptions.makeTrace()
        setup.trace?.redactsText = secure  // a secure field's text never reaches a file
        let paths = self.paths.isEmpty ? setup.configuredPaths : self.paths
        if paths.isEmpty {
            throw fail("give at least one extension to load, or list some under \"extensions\" in the configuration", ExitStatus.badArguments)
        }
        var loaded: [LoadedExtension] = []
        for path in paths {
            do {
                loaded.append(try setup.load(path))
            } catch {
                // The others still load: one bad extension does not stop the host.
                printError("kbhost: error: \(error.description)")
            }
        }
        guard !loaded.isEmpty else { throw ExitStatus.loadFailure }

        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        if !interactive {
            let session = setup.session(for: loaded[0], field: TextField(text: text), policy: sessionOptions.window)
            // Events from the first appearance on go to standard error (PipedRepl says more).
            session.onEvent = PipedRepl.reporter(for: session)
            session.latency = sessionOptions.editLatency
            do {
                try session.show()
            } catch {
                throw fail(error.advice, ExitStatus.loadFailure)
            }
            let secure = self.secure || session.configuration?.requestsSecureEntry == true
            Task { @MainActor in
                Foundation.exit(await PipedRepl(session: session, secure: secure).run())
            }
            return
        }

        let environment = ProcessInfo.processInfo.environment
        let colors = !noColor && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        let repl = Repl(
            extensions: loaded,
            options: .init(
                policy: sessionOptions.window, latency: sessionOptions.editLatency, setup: setup, secure: secure,
                showKeyboard: !hideKeyboard, colors: colors
            ),
            document: text
        )
        do {
            try repl.start()
        } catch {
            throw fail(error.advice, ExitStatus.loadFailure)
        }
        ReadlineDriver(repl: repl).start()
    }
}
