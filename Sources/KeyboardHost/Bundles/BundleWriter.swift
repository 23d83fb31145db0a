import Foundation
import KeyboardModel

/// Writes an installable bundle from a built extension: `<out>/<identifier>.kbx/` with the library,
/// `manifest.json` (from the library's own descriptor and its SHA-256), and copies of the layout and
/// license files if given. What `kbhost bundle` and the `package-extension` plugin do.
public enum BundleWriter {
    /// Returns the bundle's folder. Checks what goes in before anything is written: the library loads,
    /// the layout and license files read.
    public static func write(
        library: String, layout: String? = nil, license: String? = nil, into directory: String
    ) throws(BundleError) -> String {
        let loaded: LoadedExtension
        do {
            loaded = try ExtensionLoader.load(path: library)
        } catch {
            throw BundleError(path: library, problem: error.description)
        }
        let folder = directory + "/" + ExtensionBundle.folderName(for: loaded.identifier)
        let manager = FileManager.default
        do {
            _ = try HostSettings.resolving(
                license: license, licenseField: "--license", layout: layout, layoutField: "--layout",
                relativeTo: URL(fileURLWithPath: manager.currentDirectoryPath)
            )
        } catch {
            throw BundleError(path: folder, problem: error.description)
        }
        let bytes: Data
        switch FileContents.read(library) {
        case .success(let data): bytes = data
        case .failure(let problem): throw BundleError(path: library, problem: problem.description)
        }
        do {
            if manager.fileExists(atPath: folder) { try manager.removeItem(atPath: folder) }
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The bytes hashed are the bytes written: one read of the library.
            let libraryName = URL(fileURLWithPath: library).lastPathComponent
            try bytes.write(to: URL(fileURLWithPath: folder + "/" + libraryName))
            if let layout { try manager.copyItem(atPath: layout, toPath: folder + "/layout.json") }
            if let license { try manager.copyItem(atPath: license, toPath: folder + "/license.json") }
            let manifest = BundleManifest(
                identifier: loaded.identifier, name: loaded.name, version: loaded.version, abiVersion: loaded.abiVersion,
                library: libraryName, sha256: SHA256Hex.of(bytes),
                layout: layout == nil ? nil : "layout.json", license: license == nil ? nil : "license.json"
            )
            try manifest.json().write(to: URL(fileURLWithPath: folder + "/" + BundleManifest.fileName))
        } catch {
            throw BundleError(path: folder, problem: "cannot write it: \(error.localizedDescription)")
        }
        return folder
    }
}
