import ArgumentParser

@main
struct KBHost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kbhost",
        abstract: "Host keyboard extensions (shared libraries) on Linux.",
        discussion: """
            An extension is a shared library that exports 'kbx_extension_entry' (see the C header \
            KeyboardExtensionABI.h). kbhost loads it, gives it a text field and a text document proxy, \
            and types into the field through its keys.

            \(ExitStatus.help)
            """,
        version: "0.1.0",
        subcommands: [ReplCommand.self, InspectCommand.self, RunCommand.self, RenderCommand.self, ListCommand.self, BundleCommand.self, NewCommand.self, LicenseCommand.self],
        defaultSubcommand: ReplCommand.self
    )

    /// The subcommands' names, for suggestions (`kbhost lsit`).
    static var subcommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// ArgumentParser's `main`, but a usage error is reported as every other error of kbhost's is:
    /// one line, `kbhost: error: …`, and where to read more (ArgumentParser prints three or four,
    /// its usage and the option's help among them).
    ///
    /// The parse error is let go before kbhost exits: ArgumentParser's own `main` exits while the
    /// error is held by the async main task, and LeakSanitizer, which runs at exit, reports the
    /// argument keys it holds as leaked (`kbhost run x --policy bogus`, scripts/sanitize).
    static func main() async {
        Timings.start()
        var command = await parsedCommand()
        Timings.mark("parsed")
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// The command the arguments name. Help, the version and a usage error are printed here instead,
    /// and kbhost exits with their status.
    private static func parsedCommand() async -> any ParsableCommand {
        let usage: (text: String, status: ExitCode)
        do {
            return try await asyncParseAsRoot()
        } catch {
            usage = describe(usageError: error)
        }
        if usage.status == .success {
            print(usage.text)
        } else {
            printError(usage.text)
        }
        exit(withError: usage.status)
    }

    /// What to print for an error of parsing: help and the version in full, an error in one line
    /// that says where the whole usage is.
    private static func describe(usageError error: any Error) -> (text: String, status: ExitCode) {
        let status = exitCode(for: error)
        guard status != .success else { return (fullMessage(for: error), status) }
        // The subcommands the arguments name, in order (`license issue`): their help is the one to read.
        var path = ["kbhost"]
        var command: any ParsableCommand.Type = self
        for argument in CommandLine.arguments.dropFirst() {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            command = next
        }
        return ("kbhost: error: \(message(for: error)) (see '\(path.joined(separator: " ")) --help')", status)
    }
}
