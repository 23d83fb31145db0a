import Foundation
import KeyboardHost
import Testing

/// Bounds on what the host reads from outside (issue 15): JSON checked before it is decoded (size,
/// depth, a byte order mark, a key given twice, where a syntax error is), and the sizes of layouts,
/// licenses and documents. Each refusal is one line that says what and where.
@Suite("Input bounds")
struct InputBoundsTests {
    private func problem(_ json: String) -> String? {
        do {
            try JSONInput.check(Data(json.utf8))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func malformedJSONIsRefusedWithItsLineAndColumn() {
        #expect(problem("{\n  \"a\": 1,\n  \"b\" 2\n}") == "line 3, column 7: expected ':' after a key, found '2'")
        #expect(problem("[1, 2,, 3]") == "line 1, column 7: expected a value, found ','")
        #expect(problem("{\"a\": tru}") == "line 1, column 7: expected a value, found 't'")
        #expect(problem("\"é\u{1}\"") == "line 1, column 3: a control character (U+0001) in a string: escape it")
        #expect(problem("{\"a\": 1} x") == "line 1, column 10: more after the end of the JSON value")
        #expect(problem("") == "line 1, column 1: the JSON ends where a value was expected")
        #expect(problem("[\"abc") == "line 1, column 6: a string that never ends")
        #expect(problem("01") == "line 1, column 2: more after the end of the JSON value")
        #expect(problem("1.") == "line 1, column 3: expected a digit after '.', found the end")
        #expect(problem("\"\\x\"") == "line 1, column 2: an unknown escape in a string")
        // Strings are UTF-8 (the fuzzer's first find: JSONInput passed a lone 0x8E that Foundation refused).
        for bytes: [UInt8] in [[0x8E], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(throws: JSONInputError.self) { try JSONInput.check(Data([0x22] + bytes + [0x22])) }
        }
        #expect(throws: Never.self) { try JSONInput.check(Data("\"é€😀\u{10FFFF}\"".utf8)) }
        // And so are escapes: a surrogate only as half of a pair (the fuzzer's second find).
        #expect(problem(#""\ud0e9\ud800""#) == "line 1, column 8: a lone UTF-16 surrogate in a \\u escape")
        #expect(problem(#""\udc00""#) == "line 1, column 2: a lone UTF-16 surrogate in a \\u escape")
        #expect(problem(#""\ud83d\ude00""#) == nil)
        // Numbers fit a double, as JSONDecoder reads them (the fuzzer's third find: 5e333…).
        #expect(problem("[1, 5e3330000]") == "line 1, column 5: a number too large for a double")
        #expect(problem("[-1.7976931348623157e308, 1e-400]") == nil)
    }

    @Test func aKeyGivenTwiceIsRefusedWhereTheSecondIs() {
        #expect(problem("{\"a\": 1,\n \"b\": {\"a\": 2},\n \"a\": 3}") == "line 3, column 2: the key 'a' appears twice in one object")
        // Escapes are read: "\u0061" is "a".
        #expect(problem("{\"a\": 1, \"\\u0061\": 2}") == "line 1, column 10: the key 'a' appears twice in one object")
        #expect(problem("{\"😀\": 1, \"\\ud83d\\ude00\": 2}") == "line 1, column 10: the key '😀' appears twice in one object")
        // The same key in two objects is no duplicate.
        #expect(problem("[{\"a\": 1}, {\"a\": 2}]") == nil)
    }

    @Test func aByteOrderMarkIsRefusedWithWhatToDo() {
        #expect(problem("\u{FEFF}{}") == "begins with a byte order mark (U+FEFF), which JSON does not allow: save it as UTF-8 without one")
    }

    @Test func depthAndSizeAreBoundedAndRefusedQuickly() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(problem(deep) == "line 1, column 65: nested more than 64 deep")
        #expect(problem(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        let large = Data(count: (16 << 20) + 1)
        #expect(throws: JSONInputError.self) { try JSONInput.check(large) }
        #expect((try? JSONInput.check(large)) == nil)
        do { try JSONInput.check(large) } catch { #expect(error.description == "16.0 MiB, more than the 16 MiB allowed") }
    }

    @Test func everyJSONTheEncoderWritesIsAccepted() throws {
        // Whatever Foundation's encoder writes (nested values, escapes, every kind of number) passes,
        // and decodes to what was encoded.
        var random = SplitMix64(state: 0x15)
        for _ in 0..<500 {
            let value = JSONValue.random(depth: 5, using: &random)
            let data = try JSONEncoder().encode(value)
            #expect(throws: Never.self) { try JSONInput.check(data) }
            #expect(try JSONInput.decode(JSONValue.self, from: data) == value)
        }
    }

    @Test func aLayoutWithTooManyKeysIsRefusedByName() throws {
        func layout(keys: Int) -> Data {
            let row = "[" + Array(repeating: "{\"code\":\"input\",\"label\":\"a\"}", count: 100).joined(separator: ",") + "]"
            let rows = "[" + Array(repeating: row, count: keys / 100).joined(separator: ",") + "]"
            return Data("{\"subKeyboards\":[{\"mode\":\"letters\",\"rows\":\(rows)}]}".utf8)
        }
        #expect(throws: Never.self) { try KeyboardLayout(json: layout(keys: 10_000)) }
        #expect(throws: LayoutFileError.invalid(path: "layout", problem: "subKeyboards: 10100 keys, more than the 10000 a layout may have")) {
            try KeyboardLayout(json: layout(keys: 10_100))
        }
    }

    @Test func aLicenseFileIsStrictAndBounded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func read(_ json: String) -> String? {
            let file = folder.appendingPathComponent("license.json")
            try! json.write(to: file, atomically: true, encoding: .utf8)
            do {
                _ = try LicenseConfiguration.read(file.path)
                return nil
            } catch {
                return error.description.replacingOccurrences(of: file.path, with: "F")
            }
        }
        #expect(read(#"{"licenseKey": "k", "licenseSecret": "s"}"#) == nil)
        #expect(read(#"{"licenseKey": "k", "licenseSecret": "s", "licenceKey": "k"}"#)?.contains("licenceKey: unknown key (expected licenseKey, licenseSecret)") == true)
        #expect(read("{\"licenseKey\": \"\(String(repeating: "k", count: 20_000))\", \"licenseSecret\": \"s\"}")?
            .contains("licenseKey: 20000 bytes, more than the 16384 allowed") == true)
        #expect(read("\u{FEFF}{\"licenseKey\": \"k\", \"licenseSecret\": \"s\"}")?.contains("byte order mark") == true)
    }

    @Test func aHostConfigurationWithAKeyTwiceSaysWhere() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try "{\n  \"allowUnlicensed\": false,\n  \"allowUnlicensed\": true\n}".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: HostConfigurationError.invalid(path: file.path, problem: "line 3, column 3: the key 'allowUnlicensed' appears twice in one object")) {
            try HostConfiguration.read(file.path)
        }
    }

    @Test func aDocumentLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("document-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: UInt8(ascii: "a"), count: 3 << 20).write(to: file)
        #expect(throws: DocumentFile.ReadError.tooLarge(path: file.path, bytes: 3 << 20, limit: 2 << 20)) {
            try DocumentFile.read(file.path, limit: 2 << 20)
        }
        #expect(try DocumentFile.read(file.path, limit: 3 << 20).utf8.count == 3 << 20)
    }

    /// Files are read to their end, whatever stat(2) says their size is: an empty file (whose read
    /// buffer swift-foundation leaks), a file of /proc (size 0, contents not), a directory, none.
    @Test func filesAreReadToTheEndWhateverTheirSizeSays() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: empty) }
        try Data().write(to: empty)
        #expect(try DocumentFile.read(empty.path) == "")
        let status = try FileContents.read("/proc/self/status").get()
        #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
        // Its size unknown until read, a limit stops the read as soon as it is passed.
        if case .failure(.tooLarge(let bytes)) = FileContents.read("/proc/self/status", limit: 10) {
            #expect(bytes > 10 && bytes < status.count)
        } else {
            Issue.record("a limit of 10 bytes read /proc/self/status")
        }
        #expect(throws: FileContents.FileProblem.isADirectory) { try FileContents.read(NSTemporaryDirectory()).get() }
        #expect(throws: FileContents.FileProblem.noSuchFile) { try FileContents.read(empty.path + "-gone").get() }
        #expect(throws: FileContents.FileProblem.noSuchFile) { try FileContents.read(empty.path + "/below").get() }
    }
}

extension JSONValue {
    /// A random value: strings with escapes and any Unicode, numbers of every kind, nested arrays and
    /// objects, `depth` levels at most.
    static func random(depth: Int, using random: inout SplitMix64) -> JSONValue {
        let pieces = Array("aé\"\\/\n\t\u{1}\u{7F}😀👩‍👩‍👧\u{FEFF}\u{10FFFF}")
        func string() -> String {
            String((0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! })
        }
        switch Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &random) {
        case 0: return .string(string())
        case 1: return .number(Double.random(in: -1e12...1e12, using: &random))
        case 2: return .number(Double(Int.random(in: -1000...1000, using: &random)))
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .null
        case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in .random(depth: depth - 1, using: &random) })
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) { object[string()] = .random(depth: depth - 1, using: &random) }
            return .object(object)
        }
    }
}
