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

    public static func open(_ path: String) throws(BundleError) -> ExtensionBundle {
        let manifest = try readManifest(path)
        let library = path + "/" + manifest.library
        let digest: String
        switch FileContents.read(library) {
        case .failure(let problem): throw BundleError(path: path, problem: "\(manifest.library): \(problem)")
        case .success(let data): digest = SHA256Hex.of(data)
        }
        guard digest == manifest.sha256 else {
            throw BundleError(path: path, problem: "\(manifest.library) has SHA-256 \(digest), but the manifest says \(manifest.sha256): it changed after it was bundled")
        }
        let loaded: LoadedExtension
        do {
            loaded = try ExtensionLoader.load(path: library)
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

    /// The bundle's manifest, strictly read; nothing else is opened.
    static func readManifest(_ path: String) throws(BundleError) -> BundleManifest {
        switch FileContents.read(path + "/" + BundleManifest.fileName) {
        case .failure(let problem):
            throw BundleError(path: path, problem: "\(BundleManifest.fileName): \(problem)")
        case .success(let data):
            do {
                return try JSONDecoder().decode(BundleManifest.self, from: data)
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
