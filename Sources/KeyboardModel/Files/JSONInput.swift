import Foundation

/// The one door for JSON from outside the host — files (layouts, licenses, issuers, `kbhost.json`,
/// bundle manifests), what an extension sends (its configuration, layouts, events, command answers)
/// and `--set` values. Before `JSONDecoder` sees the bytes, they are checked here, so that whatever
/// they hold, the host answers in bounded time and memory with one line that says where:
///
/// - at most ``Limits/maximumBytes`` (16 MiB), nested at most ``Limits/maximumDepth`` (64) deep;
/// - no UTF-8 byte order mark (an editor's, which JSON forbids);
/// - well formed, strings in UTF-8, or the error names the line and column;
/// - no key twice in one object: the second would silently win.
///
/// One pass over the bytes, no allocation but the keys of the objects open at the moment.
///
/// Unknown keys: a file a user writes is strict (``UnknownKeys/refused``: a typo is an error, not a
/// setting silently ignored); what a peer sends over the ABI tolerates them (``UnknownKeys/ignored``:
/// a host or an extension one revision newer may append fields, as the header's rules allow, and the
/// older side reads on). Missing optional fields take their defaults either way.
public enum JSONInput {
    /// What decoding does with a key the type does not know.
    public enum UnknownKeys: Sendable {
        /// An error naming the key (files a user writes).
        case refused
        /// Skipped (JSON from the other side of the ABI: configurations, settings, layouts, events,
        /// command answers).
        case ignored
    }

    public struct Limits: Sendable {
        public var maximumBytes: Int
        public var maximumDepth: Int

        public init(maximumBytes: Int, maximumDepth: Int) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
        }

        /// 16 MiB and 64 levels: far beyond any layout, configuration or settings file, far below
        /// what would cost the host time or memory to refuse.
        public static let standard = Limits(maximumBytes: 16 << 20, maximumDepth: 64)
    }

    /// Decodes `type` from `data` once ``check(_:limits:)`` has passed it. Throws ``JSONInputError`` or
    /// the decoder's `DecodingError` (``DecodingProblem`` words either in one line).
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, limits: Limits = .standard, unknownKeys: UnknownKeys = .refused
    ) throws -> T {
        try check(data, limits: limits)
        let decoder = JSONDecoder()
        if case .ignored = unknownKeys { decoder.userInfo[.ignoresUnknownKeys] = true }
        return try decoder.decode(type, from: data)
    }

    /// Decodes `type` from a String's UTF-8 where it lies: an extension's answer to a read holds the
    /// whole document, and a copy of it into `Data` first would be one more.
    public static func decode<T: Decodable>(
        _ type: T.Type, fromUTF8 text: String, limits: Limits = .standard, unknownKeys: UnknownKeys = .refused
    ) throws -> T {
        var text = text
        return try text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return try decode(type, from: Data(), limits: limits, unknownKeys: unknownKeys)
            }
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
            return try decode(type, from: data, limits: limits, unknownKeys: unknownKeys)
        }
    }

    /// Checks `data` as described above.
    public static func check(_ data: Data, limits: Limits = .standard) throws(JSONInputError) {
        if data.count > limits.maximumBytes {
            throw JSONInputError(
                "\(ByteCountFormatting.mebibytes(data.count)), more than the \(ByteCountFormatting.mebibytes(limits.maximumBytes)) allowed"
            )
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw JSONInputError("begins with a byte order mark (U+FEFF), which JSON does not allow: save it as UTF-8 without one")
        }
        let problem: JSONInputError? = data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: limits.maximumDepth)
            do throws(JSONInputError) {
                try scanner.document()
                return nil
            } catch {
                return error
            }
        }
        if let problem { throw problem }
    }

    /// A recursive-descent check of JSON's grammar (RFC 8259). Its recursion is bounded by the depth
    /// limit, which it checks before going deeper.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let maximumDepth: Int
        var index = 0
        var line = 1
        var lineStart = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        mutating func document() throws(JSONInputError) {
            skipSpace()
            try value()
            skipSpace()
            if index < bytes.count { throw error("more after the end of the JSON value") }
        }

        private mutating func value() throws(JSONInputError) {
            guard index < bytes.count else { throw error("the JSON ends where a value was expected") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try object()
            case UInt8(ascii: "["): try array()
            case UInt8(ascii: "\""): _ = try string(keeping: false)
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw error("expected a value, found \(found())")
            }
        }

        private mutating func object() throws(JSONInputError) {
            var keys = Set<String>()
            try members(closing: UInt8(ascii: "}"), of: "an object") { scanner throws(JSONInputError) in
                guard scanner.peek(UInt8(ascii: "\"")) else { throw scanner.error("expected a key in quotes, found \(scanner.found())") }
                let keyStart = scanner.index  // the column is counted only for an error: counting it costs the line
                let key = try scanner.string(keeping: true)
                if !keys.insert(key).inserted {
                    scanner.index = keyStart  // a key holds no line break: the line is the same
                    throw scanner.error("the key '\(key)' appears twice in one object")
                }
                scanner.skipSpace()
                guard scanner.peek(UInt8(ascii: ":")) else { throw scanner.error("expected ':' after a key, found \(scanner.found())") }
                scanner.index += 1
                scanner.skipSpace()
                try scanner.value()
            }
        }

        private mutating func array() throws(JSONInputError) {
            try members(closing: UInt8(ascii: "]"), of: "an array") { scanner throws(JSONInputError) in try scanner.value() }
        }

        /// An object's or an array's members, from its opening bracket to `closing`, each read by
        /// `member`, one level deeper.
        private mutating func members(
            closing: UInt8, of container: String, _ member: (inout Scanner) throws(JSONInputError) -> Void
        ) throws(JSONInputError) {
            depth += 1
            if depth > maximumDepth { throw error("nested more than \(maximumDepth) deep") }
            index += 1
            skipSpace()
            if !peek(closing) {
                while true {
                    skipSpace()
                    try member(&self)
                    skipSpace()
                    if peek(UInt8(ascii: ",")) { index += 1; continue }
                    if peek(closing) { break }
                    throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))' in \(container), found \(found())")
                }
            }
            index += 1
            depth -= 1
        }

        /// A string; its decoded text when `keeping` (keys, to find one given twice).
        private mutating func string(keeping: Bool) throws(JSONInputError) -> String {
            index += 1  // the opening quote
            var scalars = String.UnicodeScalarView()
            var runStart = index
            func keepRun(_ end: Int) {
                guard keeping, end > runStart else { return }
                scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self).unicodeScalars)
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    keepRun(index)
                    index += 1
                    return keeping ? String(scalars) : ""
                case UInt8(ascii: "\\"):
                    keepRun(index)
                    index += 1
                    guard index < bytes.count else { break }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                        if keeping { scalars.append(Unicode.Scalar(escaped)) }
                    case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        if keeping { scalars.append(Unicode.Scalar(["b": 8, "f": 12, "n": 10, "r": 13, "t": 9][Character(Unicode.Scalar(escaped))]! as UInt8)) }
                    case UInt8(ascii: "u"):
                        let escapeStart = index - 2
                        let unit = try hexUnit()
                        var value = UInt32(unit)
                        if UTF16.isLeadSurrogate(unit) {
                            // Only as the first half of a pair, as JSONDecoder reads it.
                            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                index = escapeStart
                                throw error("a lone UTF-16 surrogate in a \\u escape")
                            }
                            index += 2
                            let trail = try hexUnit()
                            guard UTF16.isTrailSurrogate(trail) else {
                                index = escapeStart
                                throw error("a lone UTF-16 surrogate in a \\u escape")
                            }
                            value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(trail - 0xDC00)
                        } else if UTF16.isTrailSurrogate(unit) {
                            index = escapeStart
                            throw error("a lone UTF-16 surrogate in a \\u escape")
                        }
                        if keeping { scalars.append(Unicode.Scalar(value)!) }
                    default:
                        index -= 2
                        throw error("an unknown escape in a string")
                    }
                    runStart = index
                case 0..<0x20:
                    throw error("a control character (\(String(format: "U+%04X", byte))) in a string: escape it")
                case 0x80...:
                    guard let length = utf8SequenceLength() else { throw error("a string that is not UTF-8 (\(String(format: "byte 0x%02X", byte)))") }
                    index += length
                default:
                    index += 1
                }
            }
            throw error("a string that never ends")
        }

        /// The length of the well-formed UTF-8 sequence at `index` (Unicode's table 3-7: no overlong
        /// forms, no surrogates, nothing above U+10FFFF), or `nil`.
        private func utf8SequenceLength() -> Int? {
            let lead = bytes[index]
            let (length, second): (Int, ClosedRange<UInt8>) = switch lead {
            case 0xC2...0xDF: (2, 0x80...0xBF)
            case 0xE0: (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
            case 0xED: (3, 0x80...0x9F)
            case 0xF0: (4, 0x90...0xBF)
            case 0xF1...0xF3: (4, 0x80...0xBF)
            case 0xF4: (4, 0x80...0x8F)
            default: (0, 0...0)
            }
            guard length > 0, index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
            for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
            return length
        }

        /// Four hex digits after `\u`.
        private mutating func hexUnit() throws(JSONInputError) -> UInt16 {
            guard index + 4 <= bytes.count else { throw error("an unfinished \\u escape") }
            var unit: UInt16 = 0
            for _ in 0..<4 {
                guard let digit = Self.hexValue(bytes[index]) else { throw error("\\u needs four hex digits") }
                unit = unit << 4 | UInt16(digit)
                index += 1
            }
            return unit
        }

        private mutating func number() throws(JSONInputError) {
            let start = index
            if peek(UInt8(ascii: "-")) { index += 1 }
            if peek(UInt8(ascii: "0")) {
                index += 1
            } else {
                guard digits() > 0 else { throw error("expected a digit, found \(found())") }
            }
            if peek(UInt8(ascii: ".")) {
                index += 1
                guard digits() > 0 else { throw error("expected a digit after '.', found \(found())") }
            }
            if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
                index += 1
                if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
                guard digits() > 0 else { throw error("expected a digit in the exponent, found \(found())") }
            }
            // As JSONDecoder reads numbers: into a Double, which must hold it (1e400 does not).
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if let value = Double(text), !value.isFinite {
                index = start
                throw error("a number too large for a double")
            }
        }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }

        private mutating func literal(_ word: StaticString) throws(JSONInputError) {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
                throw error("expected a value, found \(found())")
            }
            index += expected.count
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
                case UInt8(ascii: "\n"):
                    index += 1
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

        /// The column of `index`, in characters of the line (UTF-8 continuation bytes not counted).
        private var column: Int {
            1 + bytes[lineStart..<min(index, bytes.count)].count { $0 & 0xC0 != 0x80 }
        }

        /// What is at `index`, for an error: a character (escaped if it is not printable) or the end.
        private func found() -> String {
            guard index < bytes.count else { return "the end" }
            let byte = bytes[index]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return String(format: "byte 0x%02X", byte)
        }

        private func error(_ problem: String) -> JSONInputError {
            JSONInputError(line: line, column: column, problem)
        }

        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }
}

/// Why JSON from outside was refused: where, when the problem has a place, and what.
public struct JSONInputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int?
    public let column: Int?
    public let problem: String

    init(line: Int? = nil, column: Int? = nil, _ problem: String) {
        self.line = line
        self.column = column
        self.problem = problem
    }

    public var description: String {
        guard let line, let column else { return problem }
        return "line \(line), column \(column): \(problem)"
    }
}
