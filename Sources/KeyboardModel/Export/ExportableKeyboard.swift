/// A keyboard class that can make its own descriptor (the C ABI's `kbx_extension_descriptor`), and so
/// can be hosted from its class rather than from a shared library. `KeyboardViewController` is one.
///
/// Why it is here, where host and SDK both see it: a test hosts its own keyboard classes
/// (`KeyboardTestHost(MyKeyboard.self, isolation: .process)`), and the child process that runs one is
/// the test binary started again — so the child finds the class by its mangled name (`_typeByName`)
/// and asks it, through this protocol, for its descriptor, without the host's module linking the SDK.
public protocol ExportableKeyboard: AnyObject {
    /// The descriptor for this class under `id`, `name` and `version`: a pointer to a
    /// `kbx_extension_descriptor` that lives as long as the process.
    static func export(id: String, name: String, version: String) -> UnsafeRawPointer
}
