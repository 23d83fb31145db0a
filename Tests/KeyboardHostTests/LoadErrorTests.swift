import Foundation
import KeyboardHost
import Testing
import TestSupport

/// Every way a load can fail has its own error and one clear line; the host goes on.
@Suite("Loading: every failure has its own one-line error")
struct LoadErrorTests {
    private func loadError(_ path: String) -> LoadError? {
        do {
            _ = try ExtensionLoader.load(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFile() {
        let error = loadError("/nonexistent/libNothing.so")
        #expect(error == .fileNotFound(path: "/nonexistent/libNothing.so"))
        #expect(error?.description == "cannot load extension '/nonexistent/libNothing.so': no such file")
    }

    @Test func textFileIsNotASharedLibrary() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-library-\(UUID()).so").path
        try "just text\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(loadError(path)?.description == "cannot load extension '\(path)': not a shared library (not an ELF file)")
    }

    @Test func emptyFileIsNotASharedLibrary() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).so").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(loadError(path) == .notASharedLibrary(path: path, reason: "not an ELF file"))
    }

    @Test func directoryIsNotASharedLibrary() {
        let path = FileManager.default.temporaryDirectory.path
        #expect(loadError(path)?.description == "cannot load extension '\(path)': not a shared library (it is a directory)")
    }

    @Test func objectFileIsNotASharedLibrary() throws {
        let path = try CFixture.build("object", output: .object)
        #expect(loadError(path)?.description
            == "cannot load extension '\(path)': not a shared library (an ELF file, but a relocatable object (.o))")
    }

    @Test func executableIsNotASharedLibrary() throws {
        let path = try BuildProducts.kbhost()
        let error = loadError(path)
        // A position-independent executable is ELF type "shared object" too; the dynamic linker is the
        // one that refuses it. Either way the line names the file and says it cannot be loaded.
        #expect(error?.description.hasPrefix("cannot load extension '\(path)': ") == true)
        #expect(error?.path == path)
    }

    @Test func noEntrySymbol() throws {
        let path = try CFixture.build("noEntry", defines: ["FIXTURE_NO_ENTRY"])
        #expect(loadError(path)?.description
            == "cannot load extension '\(path)': it does not export 'kbx_extension_entry', so it is not a keyboard extension")
    }

    @Test func entryReturnsNull() throws {
        let path = try CFixture.build("nullEntry", defines: ["FIXTURE_NULL_ENTRY"])
        #expect(loadError(path)?.description
            == "cannot load extension '\(path)': its entry function returned NULL instead of a descriptor")
    }

    @Test func unsupportedABIVersion() throws {
        let path = try CFixture.build("abi99", defines: ["FIXTURE_ABI_VERSION=99"])
        #expect(loadError(path)?.description
            == "cannot load extension '\(path)': it was built for ABI version 99, and this host supports version 1")
    }

    @Test func descriptorTooSmall() throws {
        let path = try CFixture.build("small", defines: ["FIXTURE_STRUCT_SIZE=40"])
        #expect(loadError(path)?.description
            == "cannot load extension '\(path)': its descriptor is 40 bytes, smaller than the 96 bytes its ABI version requires")
    }

    @Test func identifierNotReverseDNS() throws {
        let path = try CFixture.build("badIdentifier", defines: [#"FIXTURE_IDENTIFIER="hello keyboard""#])
        #expect(loadError(path)?.description
            == "cannot load extension '\(path)': its descriptor's identifier 'hello keyboard' is not reverse-DNS (expected e.g. com.example.keyboard)")
    }

    @Test func versionNotSemantic() throws {
        let path = try CFixture.build("badVersion", defines: [#"FIXTURE_VERSION="1.0""#])
        #expect(loadError(path)?.description
            == "cannot load extension '\(path)': its descriptor's version '1.0' is not a semantic version (expected MAJOR.MINOR.PATCH, e.g. 1.0.0)")
    }

    @Test func missingCallback() throws {
        let path = try CFixture.build("nullCallback", defines: ["FIXTURE_NULL_CALLBACK"])
        #expect(loadError(path)?.description == "cannot load extension '\(path)': its descriptor's callback key_event is NULL")
    }

    @Test func relativePathIsNotLookedUpInTheLibraryPath() throws {
        // "libc.so.6" exists in the system library path; a relative path means the working directory.
        #expect(loadError("libc.so.6") == .fileNotFound(path: "libc.so.6"))
    }

    @Test func failedLoadsLeaveOtherExtensionsWorking() throws {
        _ = loadError("/nonexistent.so")
        _ = loadError(try CFixture.build("nullEntry", defines: ["FIXTURE_NULL_ENTRY"]))
        let loaded = try ExtensionLoader.load(path: try BuildProducts.sample("HelloKeyboard"))
        #expect(loaded.identifier == "dev.kbhost.samples.hello")
    }
}

@Suite("Descriptor rules")
struct DescriptorRuleTests {
    @Test(arguments: ["1.0.0", "0.1.0", "10.20.30", "1.0.0-alpha.1", "1.0.0+build.5", "1.0.0-rc.1+exp.sha.5114f85"])
    func semanticVersionsAreAccepted(_ version: String) throws {
        let path = try CFixture.build("version-\(version)", defines: ["FIXTURE_VERSION=\"\(version)\""])
        #expect(try ExtensionLoader.load(path: path).version == version)
    }

    @Test(arguments: ["1", "1.0", "01.0.0", "1.0.0-", "1.0.0+", "1.0.0-a..b", "v1.0.0", "1.0.0.0", ""])
    func otherVersionsAreRefused(_ version: String) throws {
        let path = try CFixture.build("badversion-\(version)", defines: ["FIXTURE_VERSION=\"\(version)\""])
        #expect(throws: LoadError.self) { try ExtensionLoader.load(path: path) }
    }

    @Test(arguments: ["com", "com..example", "com.-example", "com.exa_mple", "com.exämple", ""])
    func badIdentifiersAreRefused(_ identifier: String) throws {
        let path = try CFixture.build("badid-\(identifier)", defines: ["FIXTURE_IDENTIFIER=\"\(identifier)\""])
        #expect(throws: LoadError.self) { try ExtensionLoader.load(path: path) }
    }
}
