import ArgumentParser
import Foundation
import KeyboardHost

struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print an extension's descriptor: id, name, version, ABI version.",
        discussion: "Loads the library and checks its descriptor without creating a keyboard.\n\n\(ExitStatus.pointer)"
    )

    @Argument(help: "Path to the extension's shared library (lib<Name>.so).")
    var path: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let loaded: LoadedExtension
        do {
            loaded = try ExtensionLoader.load(path: path)
        } catch {
            throw fail(error.description, ExitStatus.loadFailure)
        }
        if json {
            print(try JSONOutput.encode(ExtensionSummary(loaded)))
        } else {
            print("""
                name:        \(loaded.name)
                identifier:  \(loaded.identifier)
                version:     \(loaded.version)
                ABI version: \(loaded.abiVersion)
                gestures:    \(loaded.takesKeyGestures ? "yes (long-press, hold, drag)" : "no (taps only)")
                path:        \(loaded.source)
                """)
        }
    }
}

/// An extension's identity, as kbhost prints it.
struct ExtensionSummary: Codable {
    let identifier: String
    let name: String
    let version: String
    let abiVersion: UInt32
    /// Whether it takes key gestures (ABI revision 5's `key_gestures`).
    let keyGestures: Bool
    let path: String

    init(_ loaded: LoadedExtension) {
        identifier = loaded.identifier
        name = loaded.name
        version = loaded.version
        abiVersion = loaded.abiVersion
        keyGestures = loaded.takesKeyGestures
        path = loaded.source
    }
}

enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
