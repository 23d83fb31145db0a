import Foundation
import PackagePlugin

/// `swift package package-extension --product NAME [--layout FILE] [--license FILE] [--out FOLDER] [--install]`
///
/// Builds the extension's dynamic library product in release and writes an installable bundle with
/// `kbhost bundle`: `<out>/<identifier>.kbx/` holding the `.so`, `manifest.json` (id, name, version,
/// ABI version, SHA-256) and the layout and license files. `--out` defaults to `bundles/` in the
/// package (writing there needs `--allow-writing-to-package-directory`); `--install` writes to the
/// per-user folder kbhost loads from instead. It ends by saying what it wrote and how to run it.
///
/// It uses a kbhost that is already built rather than building one (a second build of the whole SDK):
/// `$KBHOST`, else `kbhost` on PATH, else the one the KeyboardHost checkout this package depends on
/// has built (`.build/debug` or `.build/release`); only if there is none does it build one.
@main
struct PackageExtension: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let products = extractor.extractOption(named: "product")
        let layout = extractor.extractOption(named: "layout").last
        let license = extractor.extractOption(named: "license").last
        let out = extractor.extractOption(named: "out").last
        let install = extractor.extractFlag(named: "install") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError("unknown arguments: \(extractor.remainingArguments.joined(separator: " "))")
        }
        let libraries = context.package.products.filter { product in
            guard let library = product as? LibraryProduct, case .dynamic = library.kind else { return false }
            return products.isEmpty || products.contains(product.name)
        }
        if let missing = products.first(where: { name in !libraries.contains { $0.name == name } }) {
            throw PluginError("no dynamic library product '\(missing)' in \(context.package.displayName)")
        }
        guard !libraries.isEmpty else { throw PluginError("\(context.package.displayName) has no dynamic library product to bundle") }

        let kbhost = try findKbhost(context)
        let folder = install ? nil : (out.map { URL(fileURLWithPath: $0, relativeTo: context.package.directoryURL).path }
            ?? context.package.directoryURL.appendingPathComponent("bundles").path)
        for product in libraries {
            print("package-extension: building \(product.name) in release (the first time, the SDK's release build too)")
            let result = try packageManager.build(.product(product.name), parameters: .init(configuration: .release, logging: .concise))
            guard result.succeeded else {
                print(result.logText)
                throw PluginError("the release build of \(product.name) failed")
            }
            guard let library = result.builtArtifacts.first(where: { $0.kind == .dynamicLibrary })?.url else {
                throw PluginError("the build of \(product.name) made no shared library")
            }
            var arguments = ["bundle", library.path]
            if let layout { arguments += ["--layout", layout] }
            if let license { arguments += ["--license", license] }
            if let folder { arguments += ["--out", folder] }
            let output = Pipe()
            let process = Process()
            process.executableURL = kbhost
            process.arguments = arguments
            process.standardOutput = output
            try process.run()
            let written = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw PluginError("kbhost bundle failed for \(product.name)") }
            // <folder>/<identifier>.kbx: what to type to run it.
            let bundle = URL(fileURLWithPath: written)
            let identifier = bundle.deletingPathExtension().lastPathComponent
            let run = install ? "kbhost \(identifier)" : "kbhost --bundles \(bundle.deletingLastPathComponent().path) \(identifier)"
            print("""
                package-extension: bundled \(product.name): \(written)
                  run it:     \(run)     (or: kbhost \(written))
                  install it: swift package package-extension --product \(product.name) --install, then kbhost \(identifier)
                  (without a license, add --allow-unlicensed while developing)
                """)
        }
    }

    /// A kbhost already built: $KBHOST, PATH, or the KeyboardHost checkout's; else one built now.
    private func findKbhost(_ context: PluginContext) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["KBHOST"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else { throw PluginError("KBHOST='\(path)' is not an executable") }
            return URL(fileURLWithPath: path)
        }
        let onPath = (environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("kbhost") }
        let checkouts = context.package.dependencies.map(\.package).filter { $0.products.contains { $0.name == "kbhost" } }
        let built = checkouts.flatMap { sdk in
            ["debug", "release"].map { sdk.directoryURL.appendingPathComponent(".build/\($0)/kbhost") }
        }
        if let found = (onPath + built).first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        print("package-extension: no kbhost on PATH or in the SDK's .build: building one (set KBHOST, or put kbhost on PATH, to skip this)")
        let result = try packageManager.build(.product("kbhost"), parameters: .init(configuration: .debug, logging: .concise))
        guard result.succeeded, let tool = result.builtArtifacts.first(where: { $0.kind == .executable })?.url else {
            print(result.logText)
            throw PluginError("could not build kbhost; build it in the KeyboardHost checkout (swift build) and set KBHOST to it")
        }
        return tool
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
