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
        subcommands: [ReplCommand.self, InspectCommand.self, RunCommand.self, ListCommand.self, BundleCommand.self, NewCommand.self, LicenseCommand.self],
        defaultSubcommand: ReplCommand.self
    )
}
