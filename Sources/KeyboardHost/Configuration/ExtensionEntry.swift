import Foundation
import KeyboardModel

/// One extension in the host's configuration file: where it is, and the user's settings for it.
///
/// ```json
/// { "path": ".build/debug/libHelloKeyboard.so",
///   "license": "licenses/hello.license.json",
///   "layout": "qwerty",
///   "typing": { "autocapitalization": true },
///   "appearance": { "theme": "light" },
///   "options": { "language": "en" } }
/// ```
///
/// `path` (to load it when kbhost is given no extensions) or `id` (its settings for whatever file
/// has that identifier) or both. `license` is a file as `kbhost license issue` prints; `layout` a
/// built-in name (``KeyboardLayout/builtIn``) or a layout file. Both are read when the configuration is
/// read, so a bad one is reported before anything loads. Paths are relative to the configuration's folder.
public struct ExtensionEntry: Sendable, Equatable {
    /// The shared library, as an absolute path.
    public var path: String?
    /// The identifier the settings are for.
    public var identifier: String?
    /// What the extension is handed before its configuration is asked for.
    public var settings: HostSettings

    public init(path: String? = nil, identifier: String? = nil, settings: HostSettings = .none) {
        self.path = path
        self.identifier = identifier
        self.settings = settings
    }

    /// Whether these settings are for `loaded`: the same identifier, or the same file.
    public func matches(_ loaded: LoadedExtension) -> Bool {
        if let identifier { return identifier == loaded.identifier }
        guard let path else { return false }
        return Self.canonical(path) == Self.canonical(loaded.source)
    }

    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// The JSON of one entry, as written in the file; ``resolved(relativeTo:)`` reads what it points to.
struct ExtensionEntryFile: Decodable {
    var path: String?
    var id: String?
    var license: String?
    var layout: String?
    var typing: JSONValue?
    var appearance: JSONValue?
    var options: [String: JSONValue]?
    var environment: KeyboardEnvironment?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case path, id, license, layout, typing, appearance, options, environment
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        license = try container.decodeIfPresent(String.self, forKey: .license)
        layout = try container.decodeIfPresent(String.self, forKey: .layout)
        typing = try container.decodeIfPresent(JSONValue.self, forKey: .typing)
        appearance = try container.decodeIfPresent(JSONValue.self, forKey: .appearance)
        options = try container.decodeIfPresent([String: JSONValue].self, forKey: .options)
        environment = try container.decodeIfPresent(KeyboardEnvironment.self, forKey: .environment)
        if path == nil && id == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a path or an id"))
        }
        // Checked here so the message names the field: the host lays these over the extension's own.
        if let typing { _ = try TypingOptions.decode(typing, at: container, key: .typing) }
        if let appearance { _ = try Appearance.decode(appearance, at: container, key: .appearance) }
    }

    /// Reads the license and layout files; `field` names this entry in errors (`extensions[0]`).
    func resolved(relativeTo folder: URL, field: String) throws(SettingsFileError) -> ExtensionEntry {
        let settings = try HostSettings.resolving(
            license: license, licenseField: field + ".license", layout: layout, layoutField: field + ".layout",
            relativeTo: folder
        )
        return ExtensionEntry(
            path: path.map { absolute($0, relativeTo: folder) }, identifier: id,
            settings: HostSettings(
                license: settings.license, layout: settings.layout, typing: typing, appearance: appearance,
                options: options ?? [:], environment: environment
            )
        )
    }
}

/// A license or layout file named in the settings that cannot be used; the message names the field
/// that named it and what was wrong with the file.
public struct SettingsFileError: Error, Equatable, CustomStringConvertible {
    public let field: String
    public let problem: String
    public var description: String { "\(field): \(problem)" }
}

extension HostSettings {
    /// Settings with the license file and the layout (a built-in name or a file) read; relative paths
    /// are taken from `folder`. Errors name the field each came from (`extensions[0].layout`, `--layout`).
    public static func resolving(
        license: String?, licenseField: String, layout: String?, layoutField: String, relativeTo folder: URL
    ) throws(SettingsFileError) -> HostSettings {
        var settings = HostSettings()
        if let license {
            do {
                settings.license = try LicenseConfiguration.read(absolute(license, relativeTo: folder))
            } catch {
                throw SettingsFileError(field: licenseField, problem: "license \(error.description)")
            }
        }
        if let layout {
            if let builtIn = KeyboardLayout.builtIn[layout] {
                settings.layout = builtIn
            } else if !layout.contains("/") && !layout.hasSuffix(".json") {
                let names = KeyboardLayout.builtIn.keys.sorted().joined(separator: ", ")
                throw SettingsFileError(field: layoutField, problem: "no built-in layout '\(layout)' (expected \(names) or a .json file)")
            } else {
                do {
                    settings.layout = try KeyboardLayout(contentsOfFile: absolute(layout, relativeTo: folder))
                } catch {
                    throw SettingsFileError(field: layoutField, problem: error.description)
                }
            }
        }
        return settings
    }
}

func absolute(_ path: String, relativeTo folder: URL) -> String {
    path.hasPrefix("/") ? path : folder.appendingPathComponent(path).standardized.path
}
