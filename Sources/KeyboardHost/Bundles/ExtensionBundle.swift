import Foundation
import KeyboardModel

/// An installable extension bundle: a folder with `manifest.json`, the shared library, and its layout
/// and license files (``BundleManifest``). ``open(_:)`` checks it before anything runs: the manifest
/// (strictly), the library's SHA-256 against the manifest's, then — loading it — the descriptor's id,
/// name, version and ABI version against the manifest's. A bundle that fails says why, in one line.
public struct ExtensionBundle: Sendable {
    /// The bundle's folder.
    public let path: String
    public let manifest: BundleManifest
    public let loaded: LoadedExtension
    /// What the bundle hands its extension: its layout and license files, read.
    public let settings: HostSettings

    /// The folder name for a bundle of `identifier`.
    public static func folderName(for identifier: String) -> String { identifier + ".kbx" }

    /// Opens and checks the bundle at `path`, loading its library where `isolation` says (in a child
    /// process, by default: nothing of a bundle runs in the host before the user has asked for it).
    /// The library is the file in the bundle — not one a symlink leads out to — and what is loaded is
    /// the very file whose SHA-256 was checked (``ExtensionLoader/load(path:sha256:)``).
    @MainActor
    public static func open(_ path: String, isolation: Isolation = .process) throws(BundleError) -> ExtensionBundle {
        let manifest = try readManifest(path)
        let library = path + "/" + manifest.library
        if let outside = escapingTarget(library, bundle: path) {
            throw BundleError(path: path, problem: "\(manifest.library) leads out of the bundle (to \(outside)): a bundle's library must be inside it")
        }
        let loaded: LoadedExtension
        do {
            loaded = try ExtensionLoader.load(path: library, sha256: manifest.sha256, isolation: isolation)
        } catch .changed(_, let found, _) {
            throw BundleError(path: path, problem: "\(manifest.library) has SHA-256 \(found), but the manifest says \(manifest.sha256): it changed after it was bundled")
        } catch .fileNotFound {
            throw BundleError(path: path, problem: "\(manifest.library): no such file")
        } catch {
            throw BundleError(path: path, problem: error.description)
        }
        for (field, inManifest, inLibrary) in [
            ("identifier", manifest.identifier, loaded.identifier), ("name", manifest.name, loaded.name),
            ("version", manifest.version, loaded.version), ("abiVersion", "\(manifest.abiVersion)", "\(loaded.abiVersion)"),
        ] where inManifest != inLibrary {
            throw BundleError(path: path, problem: "the manifest's \(field) is '\(inManifest)', but the library's is '\(inLibrary)'")
        }
        let settings: HostSettings
        do {
            settings = try HostSettings.resolving(
                license: manifest.license, licenseField: "license", layout: manifest.layout.map { "./" + $0 }, layoutField: "layout",
                relativeTo: URL(fileURLWithPath: path)
            )
        } catch {
            throw BundleError(path: path, problem: error.description)
        }
        return ExtensionBundle(path: path, manifest: manifest, loaded: loaded, settings: settings)
    }

    /// Where `library` really is, if that is outside the bundle's folder (a symlink leading out).
    private static func escapingTarget(_ library: String, bundle: String) -> String? {
        guard let real = realpath(library, nil) else { return nil }  // missing: the loader says so
        defer { free(real) }
        guard let folder = realpath(bundle, nil) else { return nil }
        defer { free(folder) }
        let target = String(cString: real), inside = String(cString: folder) + "/"
        return target.hasPrefix(inside) ? nil : target
    }

    /// The bundle's manifest, strictly read; nothing else is opened.
    static func readManifest(_ path: String) throws(BundleError) -> BundleManifest {
        switch FileContents.read(path + "/" + BundleManifest.fileName) {
        case .failure(let problem):
            throw BundleError(path: path, problem: "\(BundleManifest.fileName): \(problem)")
        case .success(let data):
            do {
                return try JSONInput.decode(BundleManifest.self, from: data)
            } catch {
                throw BundleError(path: path, problem: "\(BundleManifest.fileName): \(DecodingProblem(error))")
            }
        }
    }
}

/// A bundle that cannot be used: `bundle 'x.kbx': manifest.json: sha256: expected 64 lower-case hex digits`.
public struct BundleError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "bundle '\(path)': \(problem)" }
}
