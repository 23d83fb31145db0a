import KeyboardExtensionABI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Loads extensions: opens the shared library, calls its entry, and checks the descriptor.
///
/// Images are opened with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE` and never closed: closing an image
/// that contains Swift leaves the runtime pointing into unmapped memory (docs/Architecture.md, "The boundary is C"). `RTLD_LOCAL`
/// keeps each extension's symbols, its copy of the SDK included, to itself.
public enum ExtensionLoader {
    /// The descriptor ABI versions this host reads.
    public static let supportedABIVersions: ClosedRange<UInt32> = 1...KBX_ABI_VERSION

    /// The size of revision 1's descriptor, the least this host accepts.
    static let minimumDescriptorSize = MemoryLayout<kbx_extension_descriptor>.offset(of: \.cancel_command)!

    /// The symbol every extension exports.
    public static let entrySymbol = KBX_ENTRY_SYMBOL

    /// Loads the extension at `path` (absolute or relative to the working directory) where `isolation`
    /// says: into this process, or in a child process that loads and checks it and says who it is
    /// (nothing of it then runs here). With `sha256`, the library must have that digest.
    @MainActor
    public static func load(path: String, sha256: String? = nil, isolation: Isolation) throws(LoadError) -> LoadedExtension {
        switch isolation {
        case .inProcess: try load(path: path, sha256: sha256)
        case .process: try ProcessConnection.probe(path: path, absolute: absolutePath(path), sha256: sha256)
        }
    }

    /// Loads the extension at `path` into this process.
    ///
    /// The file is opened once: the checks (an ELF shared object; its SHA-256, when `sha256` is given)
    /// and the load are of that open file (dlopen of `/proc/self/fd/N`), so a library replaced on disk
    /// between the check and the load is never what runs. The descriptor stays open, as the image
    /// does: its number is never reused, so no later dlopen of the same `/proc/self/fd/N` name can be
    /// mistaken for this image.
    public static func load(path: String, sha256: String? = nil) throws(LoadError) -> LoadedExtension {
        let absolute = absolutePath(path)
        let fd = try openChecked(absolute, shownAs: path)
        var keepOpen = false
        defer { if !keepOpen { close(fd) } }
        if let sha256 {
            let found = try digest(of: fd, shownAs: path)
            guard found == sha256 else { throw .changed(path: path, found: found, expected: sha256) }
        }
        guard let handle = dlopen("/proc/self/fd/\(fd)", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw .openFailed(path: path, reason: lastDynamicLinkerError())
        }
        keepOpen = true
        guard let symbol = dlsym(handle, entrySymbol) else {
            throw .missingEntrySymbol(path: path, symbol: entrySymbol)
        }
        let entry = unsafeBitCast(symbol, to: kbx_entry_fn.self)
        return try validate(descriptor: UnsafeRawPointer(entry()), source: path, library: absolute, sha256: sha256)
    }

    /// Checks a descriptor got without dlopen (an extension linked into this process, as the testing
    /// module hosts one), with the same rules as ``load(path:)``.
    public static func validate(descriptor raw: UnsafeRawPointer?, source: String) throws(LoadError) -> LoadedExtension {
        try validate(descriptor: raw, source: source, library: nil, sha256: nil)
    }

    /// Hosts a keyboard class of this program as `identifier` and `name`, where `isolation` says: in
    /// process from the descriptor it makes, or in a child process — this program started again, which
    /// finds the class by its mangled name. Checked with the same rules as ``load(path:)``, here.
    public static func load(
        class type: any ExportableKeyboard.Type, identifier: String, name: String, isolation: Isolation
    ) throws(LoadError) -> LoadedExtension {
        let source = "class \(name)"
        let loaded = try validate(descriptor: type.export(id: identifier, name: name, version: "0.0.0"), source: source)
        guard isolation == .process else { return loaded }
        guard let mangledName = _mangledTypeName(type) else {
            throw .failedInChild(path: source, reason: "the class has no name to be found by in a child process; host it with isolation: .inProcess")
        }
        return LoadedExtension(
            source: source, identifier: loaded.identifier, name: loaded.name, version: loaded.version,
            abiVersion: loaded.abiVersion, takesKeyGestures: loaded.takesKeyGestures, isolation: .process, library: nil,
            sha256: nil, className: mangledName,
            descriptor: nil, callbacks: nil
        )
    }

    private static func validate(
        descriptor raw: UnsafeRawPointer?, source: String, library: String?, sha256: String?
    ) throws(LoadError) -> LoadedExtension {
        guard let raw else { throw .entryReturnedNull(path: source) }
        // Read only the common prefix until the size is known.
        let abiVersion = raw.load(as: UInt32.self)
        let structSize = raw.load(fromByteOffset: 4, as: UInt32.self)
        guard supportedABIVersions.contains(abiVersion) else {
            throw .unsupportedABIVersion(path: source, found: abiVersion, supported: supportedABIVersions)
        }
        // Revision 1's size is the least; fields appended later are read only when the size covers
        // them (header section 2): the rest of the copy stays zero (NULL).
        let expected = UInt32(minimumDescriptorSize)
        guard structSize >= expected else {
            throw .descriptorTooSmall(path: source, size: structSize, expected: expected)
        }
        let descriptor = raw.assumingMemoryBound(to: kbx_extension_descriptor.self)
        var fields = kbx_extension_descriptor()
        withUnsafeMutableBytes(of: &fields) { copy in
            copy.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: min(Int(structSize), copy.count)))
        }

        func text(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(LoadError) -> String {
            guard let pointer else { throw .invalidDescriptor(path: source, field: field, reason: "is NULL") }
            guard let value = String(validatingCString: pointer) else {
                throw .invalidDescriptor(path: source, field: field, reason: "is not valid UTF-8")
            }
            return value
        }
        let identifier = try text(fields.identifier, "identifier")
        let name = try text(fields.name, "name")
        let version = try text(fields.version, "version")
        if let problem = DescriptorRules.identifierProblem(identifier) {
            throw .invalidDescriptor(path: source, field: "identifier '\(identifier)'", reason: problem)
        }
        if name.allSatisfy(\.isWhitespace) {
            throw .invalidDescriptor(path: source, field: "name", reason: "is empty")
        }
        if let problem = DescriptorRules.versionProblem(version) {
            throw .invalidDescriptor(path: source, field: "version '\(version)'", reason: problem)
        }
        let required: [(String, Bool)] = [
            ("create_instance", fields.create_instance != nil),
            ("destroy_instance", fields.destroy_instance != nil),
            ("create_configuration", fields.create_configuration != nil),
            ("lifecycle", fields.lifecycle != nil),
            ("text_input", fields.text_input != nil),
            ("update_snapshot", fields.update_snapshot != nil),
            ("key_event", fields.key_event != nil),
            ("host_command", fields.host_command != nil),
        ]
        if let missing = required.first(where: { !$0.1 }) {
            throw .invalidDescriptor(path: source, field: "callback \(missing.0)", reason: "is NULL")
        }
        let callbacks = Self.callbacksCopy(of: descriptor, fields)
        return LoadedExtension(
            source: source, identifier: identifier, name: name, version: version, abiVersion: abiVersion,
            takesKeyGestures: fields.key_gestures != 0, isolation: .inProcess, library: library, sha256: sha256, className: nil, descriptor: descriptor,
            callbacks: UnsafePointer(callbacks)
        )
    }

    static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return "./" + path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    /// Opens the file and tells a missing file, a directory and a file that is not an ELF shared object
    /// apart before dlopen, whose messages for these are less clear. The checks are of the open file.
    private static func openChecked(_ absolute: String, shownAs path: String) throws(LoadError) -> Int32 {
        let fd = open(absolute, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .fileNotFound(path: path) }
            throw .openFailed(path: path, reason: String(cString: strerror(errno)))
        }
        do {
            try checkSharedObject(fd, shownAs: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    private static func checkSharedObject(_ fd: Int32, shownAs path: String) throws(LoadError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .openFailed(path: path, reason: String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .notASharedLibrary(path: path, reason: "it is a directory") }
        // ELF header: magic at 0, e_type (2 bytes, little-endian on our targets) at 16.
        var header = [UInt8](repeating: 0, count: 18)
        let count = pread(fd, &header, header.count, 0)
        guard count == header.count, header[0...3] == [0x7F, 0x45, 0x4C, 0x46] else {
            throw .notASharedLibrary(path: path, reason: "not an ELF file")
        }
        let elfType = UInt16(header[16]) | UInt16(header[17]) << 8
        guard elfType == 3 /* ET_DYN */ else {
            let kind = elfType == 1 ? "a relocatable object (.o)" : elfType == 2 ? "an executable" : "ELF type \(elfType)"
            throw .notASharedLibrary(path: path, reason: "an ELF file, but \(kind)")
        }
    }

    /// The SHA-256 of the open file, read from its start.
    private static func digest(of fd: Int32, shownAs path: String) throws(LoadError) -> String {
        var hasher = SHA256Stream()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .openFailed(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { return hasher.finish() }
            hasher.update(chunk[0..<count])
            offset += off_t(count)
        }
    }

    private static func lastDynamicLinkerError() -> String {
        guard let message = dlerror() else { return "unknown error" }
        return String(cString: message)
    }
}

extension ExtensionLoader {
    /// One copy of each descriptor's fields for the life of the process, as its image lives (never
    /// closed): loading a library again reuses it. Kept in a table, so that the copies stay reachable —
    /// a copy made per load and dropped with its LoadedExtension was a leak (LeakSanitizer).
    private static let callbackCopies = Locked<[UInt: UInt]>([:])

    fileprivate static func callbacksCopy(
        of descriptor: UnsafePointer<kbx_extension_descriptor>, _ fields: kbx_extension_descriptor
    ) -> UnsafeMutablePointer<kbx_extension_descriptor> {
        let address = callbackCopies.withLock { copies in
            if let copy = copies[UInt(bitPattern: descriptor)] { return copy }
            let copy = UnsafeMutablePointer<kbx_extension_descriptor>.allocate(capacity: 1)
            copy.initialize(to: fields)
            copies[UInt(bitPattern: descriptor)] = UInt(bitPattern: copy)
            return UInt(bitPattern: copy)
        }
        return UnsafeMutablePointer(bitPattern: address)!
    }
}
