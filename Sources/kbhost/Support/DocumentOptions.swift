import ArgumentParser
import KeyboardHost

/// The document a field starts with, for `run` and `repl`: a text given on the command line, or a
/// UTF-8 file under a size limit that can be raised.
struct DocumentOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Seed the document with this text.")
    var text: String?

    @Option(help: ArgumentHelp("Seed the document from a UTF-8 file.", valueName: "file"))
    var document: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The most MiB a --document may have (default \(DocumentFile.defaultLimit >> 20)).", valueName: "MiB"
    ))
    var documentLimit: Int = DocumentFile.defaultLimit >> 20

    func validate() throws {
        if text != nil && document != nil {
            throw ValidationError("give the document either with --text or with --document, not both")
        }
        if documentLimit <= 0 || documentLimit > 4096 {
            throw ValidationError("--document-limit must be 1 to 4096 MiB, not \(documentLimit)")
        }
    }

    /// The text the field starts with; a file that cannot be read is a bad argument, with what to do
    /// when it is only too large.
    func seed() throws -> String {
        guard let document else { return text ?? "" }
        do {
            return try DocumentFile.read(document, limit: documentLimit << 20)
        } catch {
            let hint = if case .tooLarge = error { ": raise --document-limit to read it" } else { "" }
            throw fail("--document: \(error.description)\(hint)", ExitStatus.badArguments)
        }
    }
}
