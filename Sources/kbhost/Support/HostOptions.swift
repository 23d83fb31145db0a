import ArgumentParser
import Foundation
import KeyboardHost

/// What `run`, `repl` and `list` share: how the host finds, trusts, isolates and configures extensions
/// (configuration, licenses, settings, bundles, isolation). How a session behaves as a platform is
/// ``SessionOptions``, which `list` has no use for.
struct HostOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The host configuration (trusted issuers, extensions and their settings); default: ./\(HostConfiguration.defaultFileName) if there is one.",
        valueName: "file"
    ))
    var config: String?

    @Option(help: ArgumentHelp("Trust this license issuer's public key file too (repeatable).", valueName: "file"))
    var trust: [String] = []

    @Flag(help: "Load extensions without checking their licenses. For development only; kbhost says so.")
    var allowUnlicensed = false

    @Option(help: ArgumentHelp(
        "Hand the extensions this license file (as `kbhost license issue` prints) in place of their own.",
        valueName: "file"
    ))
    var license: String?

    @Option(help: ArgumentHelp(
        "Hand the extensions this layout in place of their own: \(KeyboardLayout.builtIn.keys.sorted().joined(separator: ", ")) or a layout JSON file.",
        valueName: "name|file"
    ))
    var layout: String?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Change one setting the extensions are handed: typing.FIELD=VALUE, appearance.FIELD=VALUE, options.NAME=VALUE or environment.FIELD=VALUE (repeatable).",
        valueName: "setting"
    ))
    var assignments: [String] = []

    @Option(help: ArgumentHelp(
        "Where extensions keep their files (each in extensions/<id>, mode 0700); default: $XDG_DATA_HOME/kbhost or ~/.local/share/kbhost.",
        valueName: "folder"
    ))
    var dataDir: String?

    @Option(help: ArgumentHelp(
        "Look for installed bundles in this folder too (repeatable); then the configuration's, then <data dir>/bundles.",
        valueName: "folder"
    ))
    var bundles: [String] = []

    @Option(help: ArgumentHelp(
        "Where extensions run: process (each in a child process of its own: a crash, a hang or a flood ends the child, and your text stays) or in-process (faster; what a debugger sees; a crash takes kbhost with it). Default: process.",
        valueName: "isolation"
    ))
    var isolation: Isolation?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Stop an extension in its own process when it uses more than this many MB of memory, as iOS stops a keyboard (about 48 MB for years; 90 MB on iPadOS 26). Default: no limit.",
        valueName: "MB"
    ))
    var memoryLimit: Int?

    /// Where extensions run when --isolation is not given.
    var defaultIsolation: Isolation { .process }

    func validate() throws {
        if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit must be above 0 MB, not \(memoryLimit)") }
        if memoryLimit != nil, isolation == .inProcess {
            throw ValidationError("--memory-limit needs each extension in a process of its own; leave out --isolation in-process")
        }
    }

    /// Reads the configuration file and the flags: how licenses are checked and what each extension is
    /// handed. Every problem is one line naming the file or flag; the exit status is 64.
    func setup(platform: PlatformProfile = .exact) throws -> HostSetup {
        var configuration = HostConfiguration()
        let path = config ?? (FileManager.default.fileExists(atPath: HostConfiguration.defaultFileName) ? HostConfiguration.defaultFileName : nil)
        if let path {
            do {
                configuration = try HostConfiguration.read(path)
            } catch {
                throw fail(error.description, ExitStatus.badArguments)
            }
        }
        var flags: HostSettings
        do {
            let parsed = try assignments.map { text throws(SettingAssignmentError) in try SettingAssignment(text) }
            flags = try SettingAssignment.settings(parsed)
            let files = try HostSettings.resolving(
                license: license, licenseField: "--license", layout: layout, layoutField: "--layout",
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            )
            flags.license = files.license
            flags.layout = files.layout
        } catch let error as SettingAssignmentError {
            throw fail(error.description, ExitStatus.badArguments)
        } catch let error as SettingsFileError {
            throw fail(error.description, ExitStatus.badArguments)
        }

        let licensing: Licensing
        if allowUnlicensed || configuration.allowUnlicensed {
            printError("kbhost: warning: licenses are not checked (\(allowUnlicensed ? "--allow-unlicensed" : "allowUnlicensed in \(path ?? "")")): for development only")
            licensing = .notChecked
        } else {
            configuration.trustedIssuerFiles += trust
            do {
                licensing = .required(try configuration.verifier())
            } catch {
                throw fail("trusted issuer: \(error.description)", ExitStatus.badArguments)
            }
        }
        let dataRoot = dataDir ?? ExtensionStorage.defaultRoot()
        return HostSetup(
            licensing: licensing, configuration: configuration, flags: flags, dataRoot: dataRoot,
            bundleDirectories: bundles + configuration.bundleDirectories + [dataRoot + "/bundles"],
            isolation: isolation ?? defaultIsolation, memoryLimit: memoryLimit.map { $0 << 20 }, platform: platform
        )
    }
}

/// The host's configuration with the flags read: what `run` and `repl` start from. A class, for the
/// bundles it loads remember their settings; kbhost uses it on its main actor only.
final class HostSetup: @unchecked Sendable {
    let licensing: Licensing
    let configuration: HostConfiguration
    /// The settings given by flags; they apply to every extension of the run, over the file's.
    let flags: HostSettings
    /// The folder under which each extension gets its storage.
    let dataRoot: String
    /// Where installed bundles are looked for, in order.
    let bundleDirectories: [String]
    /// Where extensions run: in child processes of their own, or in kbhost's.
    let isolation: Isolation
    /// The memory an extension in its own process may use, in bytes.
    let memoryLimit: Int?
    /// Which platform sessions behave as.
    let platform: PlatformProfile
    /// Where sessions write every call between host and extension (--trace), if anywhere.
    var trace: CallTrace?

    /// What `loaded` is handed: its bundle's layout and license, under its entry's settings in the
    /// configuration, under the flags; and its storage folder (made now; without one, if it cannot be
    /// made, said on standard error).
    func settings(for loaded: LoadedExtension) -> HostSettings {
        let bundle = bundleSettings[loaded.source] ?? .none
        var settings = bundle.overlaid(with: configuration.settings(for: loaded)).overlaid(with: flags)
        do {
            settings.storage = try ExtensionStorage.directory(for: loaded.identifier, root: dataRoot)
        } catch {
            printError("kbhost: warning: \(error.description); \(loaded.name) runs without storage")
        }
        return settings
    }

    /// A session for `loaded` on `field`, set up as the options say: settings, licensing, limits.
    @MainActor
    func session(for loaded: LoadedExtension, field: TextField, policy: ContextPolicy, scheduler: any HostScheduler = MainQueueScheduler()) -> KeyboardSession {
        let session = KeyboardSession(extension: loaded, textField: field, policy: policy, licensing: licensing, scheduler: scheduler, trace: trace)
        session.settings = settings(for: loaded)
        session.isolationLimits.memory = memoryLimit
        session.platform = platform
        return session
    }

    /// The extensions the configuration lists with a path, to load when none is named.
    var configuredPaths: [String] { configuration.extensions.compactMap(\.path) }

    /// What each loaded bundle hands its extension, by the library's path.
    private var bundleSettings: [String: HostSettings] = [:]

    init(
        licensing: Licensing, configuration: HostConfiguration, flags: HostSettings, dataRoot: String,
        bundleDirectories: [String], isolation: Isolation, memoryLimit: Int?, platform: PlatformProfile = .exact
    ) {
        self.platform = platform
        self.isolation = isolation
        self.memoryLimit = memoryLimit
        self.licensing = licensing
        self.configuration = configuration
        self.flags = flags
        self.dataRoot = dataRoot
        self.bundleDirectories = bundleDirectories
    }

    /// Loads what the user named: a shared library, a bundle's folder, or an installed bundle's
    /// identifier (looked up in ``bundleDirectories``). A name that is none of these is answered with
    /// what it may have meant: a library's path, an installed bundle, a subcommand.
    @MainActor
    func load(_ argument: String) throws(ExtensionReferenceError) -> LoadedExtension {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue && FileManager.default.fileExists(atPath: argument + "/" + BundleManifest.fileName) {
            return try remember { () throws(BundleError) in try ExtensionBundle.open(argument, isolation: isolation) }
        }
        if !exists {
            if Self.namesALibrary(argument) {
                // From the wrong folder, or without the path a package builds it to.
                let folder = FileManager.default.currentDirectoryPath
                let built = ["debug", "release"].map { ".build/\($0)/" + argument }
                    .first { FileManager.default.fileExists(atPath: $0) }
                throw .message(
                    "no file '\(argument)' in \(folder); "
                        + (built.map { "did you mean \($0)?" } ?? "give the library's path (a package builds it to .build/debug/lib<Name>.so)")
                )
            }
            if DescriptorRules.identifierProblem(argument) == nil {
                guard let found = BundleDirectory.find(argument, in: bundleDirectories, isolation: isolation) else {
                    let near = Suggestion.nearest(to: argument, among: BundleDirectory.identifiers(in: bundleDirectories))
                    throw .message(
                        "no bundle '\(argument)' installed (looked in \(bundleDirectories.joined(separator: ", ")))"
                            + (near.map { "; did you mean '\($0)'?" } ?? "; `kbhost list` shows what is")
                    )
                }
                return try remember { () throws(BundleError) in try found.get() }
            }
            guard !argument.contains("/") else { return try loadLibrary(argument) }  // says "no such file"
            if let command = Suggestion.nearest(to: argument, among: KBHost.subcommandNames) {
                throw .message("'\(argument)' is no file, bundle or subcommand; did you mean `kbhost \(command)`?")
            }
            throw .message(
                "'\(argument)' is no file, installed bundle or subcommand; give a library's path (.build/debug/lib<Name>.so), a bundle's folder or an installed bundle's id (`kbhost list` shows them)"
            )
        }
        return try loadLibrary(argument)
    }

    @MainActor
    private func loadLibrary(_ path: String) throws(ExtensionReferenceError) -> LoadedExtension {
        do {
            return try ExtensionLoader.load(path: path, isolation: isolation)
        } catch {
            throw .message(error.description)
        }
    }

    /// Whether a name that is not a file was meant as a library's bare name (a path says itself
    /// what is missing).
    static func namesALibrary(_ argument: String) -> Bool {
        !argument.contains("/") && (argument.hasSuffix(".so") || argument.contains(".so."))
    }

    private func remember(_ bundle: () throws(BundleError) -> ExtensionBundle) throws(ExtensionReferenceError) -> LoadedExtension {
        do {
            return remember(try bundle())
        } catch {
            throw .message(error.description)
        }
    }

    /// Notes what `bundle` hands its extension (its layout and license), for ``settings(for:)``.
    @discardableResult
    func remember(_ bundle: ExtensionBundle) -> LoadedExtension {
        bundleSettings[bundle.loaded.source] = bundle.settings
        return bundle.loaded
    }
}

enum ExtensionReferenceError: Error, CustomStringConvertible {
    case message(String)
    var description: String { if case .message(let text) = self { text } else { "" } }
}

extension Isolation: ExpressibleByArgument {}
