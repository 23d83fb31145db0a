import ArgumentParser
import Foundation
import KeyboardHost

struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Make an installable bundle from a built extension.",
        discussion: """
            Writes <out>/<identifier>.kbx/: the library, manifest.json (its id, name, version and ABI \
            version, read from the library's descriptor, and its SHA-256), and the layout and license \
            files if given. The default folder is the per-user one kbhost loads bundles from, so the \
            bundle is installed: `kbhost <identifier>` opens it. The `package-extension` plugin builds \
            a product in release and runs this.

            \(ExitStatus.pointer)
            """
    )

    @Argument(help: "The extension's shared library (lib<Name>.so).")
    var library: String

    @Option(help: ArgumentHelp("A layout file to hand the extension.", valueName: "file"))
    var layout: String?

    @Option(help: ArgumentHelp("A license file (as `kbhost license issue` prints) to hand the extension.", valueName: "file"))
    var license: String?

    @Option(help: ArgumentHelp("Where to write the bundle; default: $XDG_DATA_HOME/kbhost/bundles (installed).", valueName: "folder"))
    var out: String?

    func run() async throws {
        let folder = out ?? BundleDirectory.defaultDirectory()
        do {
            print(try BundleWriter.write(library: library, layout: layout, license: license, into: folder))
        } catch {
            throw fail(error.description, ExitStatus.loadFailure)
        }
    }
}

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the installed bundles, and why any cannot be used.",
        discussion: """
            Looks in --bundles folders, the configuration's "bundles", and the per-user folder \
            ($XDG_DATA_HOME/kbhost/bundles, or ~/.local/share/kbhost/bundles). Each bundle is checked as \
            `kbhost <id>` would check it: its manifest, its library's SHA-256, its descriptor against \
            the manifest, and then activation -- the keyboard is shown once on an empty field, so its \
            configuration is made and its license checked against the issuers this host trusts \
            (--trust, --config, --allow-unlicensed). The exit status is 1 if any bundle is unusable.

            \(ExitStatus.pointer)
            """
    )

    @OptionGroup var host: HostOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    struct Row: Encodable {
        let path: String
        let identifier: String?
        let name: String?
        let version: String?
        let usable: Bool
        let problem: String?
    }

    @MainActor
    func run() async throws {
        let setup = try host.setup()
        let rows = BundleDirectory.scan(setup.bundleDirectories, isolation: setup.isolation).map { entry -> Row in
            switch entry.bundle {
            case .success(let bundle):
                let problem = Self.activationProblem(of: bundle, setup: setup)
                return Row(path: entry.path, identifier: bundle.manifest.identifier, name: bundle.manifest.name,
                           version: bundle.manifest.version, usable: problem == nil, problem: problem)
            case .failure(let error):
                return Row(path: entry.path, identifier: nil, name: nil, version: nil, usable: false, problem: error.problem)
            }
        }
        if json {
            print(try JSONOutput.encode(rows))
        } else if rows.isEmpty {
            print("no bundles in \(setup.bundleDirectories.joined(separator: ", "))")
        } else {
            for row in rows {
                if row.usable {
                    print("\(row.identifier!)  \(row.name!) \(row.version!)  \(row.path)")
                } else {
                    print("unusable  \(row.path): \(row.problem!)")
                }
            }
        }
        if rows.contains(where: { !$0.usable }) { throw ExitStatus.failure }
    }

    /// Why `bundle` would not activate under `setup`, as `kbhost <id>` would say it; `nil` if it does.
    /// It is shown once on an empty field, with its bundle's settings, and hidden again.
    @MainActor
    static func activationProblem(of bundle: ExtensionBundle, setup: HostSetup) -> String? {
        setup.remember(bundle)
        let session = setup.session(for: bundle.loaded, field: TextField(), policy: setup.platform.window)
        defer { session.hide() }
        do {
            try session.show()
            return nil
        } catch {
            return error.advice
        }
    }
}
