import ArgumentParser
import Foundation
import KeyboardHost

struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new extension package that builds, tests and loads as it is.",
        discussion: """
            Writes NAME/ with Package.swift (depending on the KeyboardHost SDK by path), a \
            KeyboardViewController subclass, a test that hosts it with the testing module, and a \
            README with what to run next. --sdk defaults to the KeyboardHost checkout this kbhost was \
            built from.

            \(ExitStatus.pointer)
            """
    )

    @Argument(help: "The extension's name: a Swift type name, such as MyKeyboard.")
    var name: String

    @Option(help: ArgumentHelp("Its reverse-DNS identifier; default: com.example.<name in lower case>.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("The KeyboardHost package, as Package.swift will name it (absolute or relative to the new package).", valueName: "path"))
    var sdk: String?

    @Option(help: ArgumentHelp("The folder to write NAME/ in; default: the current one.", valueName: "folder"))
    var output: String = "."

    /// This checkout, from this file's place in it (Sources/kbhost/Commands/NewCommand.swift).
    static let builtFrom = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func validate() throws {
        guard let first = name.unicodeScalars.first, CharacterSet.letters.contains(first) || first == "_",
              name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") })
        else {
            throw ValidationError("'\(name)' is not a Swift type name (ASCII letters, digits and _, not starting with a digit)" + Self.suggestion(for: name))
        }
        if let id, let problem = DescriptorRules.identifierProblem(id) { throw ValidationError("--id '\(id)' \(problem)") }
    }

    /// `my-keyboard` → `; try MyKeyboard`: the words of the name, capitalized and joined.
    static func suggestion(for name: String) -> String {
        let words = name.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        var joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if let first = joined.first, first.isNumber { joined = "Keyboard" + joined }
        return joined.isEmpty || joined == name ? "" : "; try \(joined)"
    }

    /// How long the new package's first `swift test` takes, as measured on a clean clone (README).
    static let firstBuildTime = "one to two and a half minutes on an idle 2-core machine, several when it is busy"

    func run() async throws {
        let sdkPath = sdk ?? Self.builtFrom
        if sdk == nil, !FileManager.default.fileExists(atPath: sdkPath + "/Package.swift") {
            throw fail("cannot find the KeyboardHost package this kbhost was built from ('\(sdkPath)'); give --sdk", ExitStatus.badArguments)
        }
        let identifier = id ?? "com.example." + name.lowercased()
        let root = URL(fileURLWithPath: output).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: root.path) {
            throw fail("'\(root.path)' exists already; kbhost new writes a new folder", ExitStatus.badArguments)
        }
        let template = ExtensionTemplate(name: name, identifier: identifier, sdkPath: sdkPath)
        do {
            for file in template.files {
                let url = root.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url)
            }
        } catch {
            throw fail("cannot write '\(root.path)': \(error.localizedDescription)", ExitStatus.badArguments)
        }
        let folder = output == "." ? name : root.path
        print("""
            wrote \(root.path): \(name) (\(identifier)), its test and a README. Next:
              1. cd \(folder) && swift test          the first build compiles the SDK too (\(Self.firstBuildTime))
              2. swift build && kbhost --allow-unlicensed .build/debug/lib\(name).so      type through it in the REPL
              3. edit Sources/\(name)/\(name).swift: createConfiguration() for the layout, keyTapped(_:) for the keys
              4. swift package --allow-writing-to-package-directory package-extension --product \(name)   a bundle to share
            """)
    }
}
