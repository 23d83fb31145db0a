import Foundation
import PackagePlugin

/// `swift package package-extension --product NAME [--layout FILE] [--license FILE] [--out FOLDER]`
///
/// Builds the extension's dynamic library product in release and writes an installable bundle with
/// `kbhost bundle`: `<out>/<identifier>.kbx/` holding the `.so`, `manifest.json` (id, name, version,
/// ABI version, SHA-256) and the layout and license files. `--out` defaults to `bundles/` in the
/// package (writing there needs `--allow-writing-to-package-directory`); `--install` writes to the
/// per-user folder kbhost loads from instead.
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

        let kbhost = try context.tool(named: "kbhost").url
        let folder = install ? nil : (out.map { URL(fileURLWithPath: $0, relativeTo: context.package.directoryURL).path }
            ?? context.package.directoryURL.appendingPathComponent("bundles").path)
        for product in libraries {
            Diagnostics.remark("building \(product.name) (release)")
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
            let process = try Process.run(kbhost, arguments: arguments)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw PluginError("kbhost bundle failed for \(product.name)") }
        }
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
