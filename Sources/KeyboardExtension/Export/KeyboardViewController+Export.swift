import KeyboardExtensionABI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension KeyboardViewController {
    /// Makes this controller class a loadable extension: returns the descriptor the host reads from
    /// the entry symbol. Call it from the one function every extension exports:
    ///
    /// ```swift
    /// @_cdecl("kbx_extension_entry")
    /// public func entry() -> UnsafeRawPointer? { MyKeyboard.export(id: "com.example.my", name: "My Keyboard", version: "1.0.0") }
    /// ```
    ///
    /// - Parameters:
    ///   - id: reverse-DNS identifier, e.g. `com.example.keyboard`.
    ///   - name: the name users see.
    ///   - version: semantic version, e.g. `1.2.0`.
    /// The host checks all three and says what is wrong with any of them.
    public nonisolated static func export(id: String, name: String, version: String) -> UnsafeRawPointer {
        ExportRegistry.descriptor(for: self, id: id, name: name, version: version)
    }
}

/// The descriptors this image exports, and which controller class each one makes.
///
/// Descriptors are allocated once and never freed: the host never unloads an image (docs/Architecture.md, "The boundary is C"), and
/// the descriptor must stay valid for the life of the process.
enum ExportRegistry {
    private struct Entry: @unchecked Sendable {
        // The metatype and the pointer are immutable once registered; the lock guards the list.
        let controllerType: KeyboardViewController.Type
        let identity: [String]
        let descriptor: UnsafeMutablePointer<kbx_extension_descriptor>
    }

    private static let entries = Locked<[Entry]>([])

    static func descriptor(
        for type: KeyboardViewController.Type, id: String, name: String, version: String
    ) -> UnsafeRawPointer {
        entries.withLock { entries in
            // The entry calls export on every load: the same class and identity get the same descriptor.
            let identity = [id, name, version]
            if let entry = entries.first(where: { $0.controllerType == type && $0.identity == identity }) {
                return UnsafeRawPointer(entry.descriptor)
            }
            let descriptor = UnsafeMutablePointer<kbx_extension_descriptor>.allocate(capacity: 1)
            descriptor.initialize(to: InstanceBridge.descriptor(
                identifier: strdup(id), name: strdup(name), version: strdup(version)
            ))
            entries.append(Entry(controllerType: type, identity: identity, descriptor: descriptor))
            return UnsafeRawPointer(descriptor)
        }
    }

    static func controllerType(for descriptor: UnsafePointer<kbx_extension_descriptor>) -> KeyboardViewController.Type? {
        entries.withLock { entries in
            entries.first(where: { UnsafePointer($0.descriptor) == descriptor })?.controllerType
        }
    }
}

extension KeyboardViewController: ExportableKeyboard {}
