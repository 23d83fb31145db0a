import ArgumentParser
import KeyboardHost

/// kbhost's exit statuses. Scripts and CI tell failures apart by them, so they never change meaning.
enum ExitStatus {
    /// The extension was loaded and did what was asked.
    static let success = ExitCode.success
    /// Bad arguments: an unknown option, a file that cannot be read, a cursor outside the document,
    /// text the keyboard has no keys for. (ArgumentParser's own usage errors use this code too.)
    static let badArguments = ExitCode.validationFailure  // 64, EX_USAGE
    /// The extension could not be loaded or activated: no file, not a shared library, no entry
    /// symbol, unsupported ABI, a malformed descriptor, or no usable configuration.
    static let loadFailure = ExitCode(69)  // EX_UNAVAILABLE
    /// Anything else went wrong while the extension ran.
    static let failure = ExitCode.failure  // 1
    /// The extension failed in its own process (isolation): it crashed, exited, hung, flooded the host
    /// or sent something malformed. The field is still printed, as it was before the fault.
    static let extensionFailed = ExitCode(70)  // EX_SOFTWARE

    /// For the subcommands whose failures are only "bad arguments" or "could not load": the table
    /// is in `kbhost --help` (and `run`'s and `repl`'s, where scripts check it).
    static let pointer = "Exit status: 0 on success; the others are in `kbhost --help`."

    static let help = """
        Exit status:
          0   success
          1   the extension failed while running
          64  bad arguments (options, files, a cursor outside the document, text with no key to type it)
          69  the extension could not be loaded or activated
          70  the extension failed in its own process (it crashed, hung, flooded the host or went over its memory limit); the field is printed as it was
        """
}

/// Prints `message` as one line on standard error, prefixed `kbhost: `, and returns `status` for the
/// caller to throw.
func fail(_ message: String, _ status: ExitCode) -> ExitCode {
    printError("kbhost: error: \(message)")
    return status
}

/// Prints one line on standard error, with any control character in it (from an extension's name, an
/// error it reported, a file) shown escaped rather than acted on by the terminal.
func printError(_ line: String) {
    var standardError = StandardError()
    print(TerminalText.escaped(line), to: &standardError)
}

/// Prints a fault's line and then what the child last wrote (a Swift crash's "Fatal error: …" and
/// where, a C library's complaint), indented under it: the line says what happened, these say why.
func printFault(_ fault: ExtensionFault, _ suffix: String = "") {
    printError("kbhost: error: \(fault.description)\(suffix)")
    let lines = fault.lastWords
    guard !lines.isEmpty else { return }
    printError("kbhost: \(fault.name)'s last output:")
    for line in lines { printError("  | \(line)") }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

import Foundation
