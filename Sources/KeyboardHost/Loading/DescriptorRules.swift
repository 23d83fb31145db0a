/// The rules for a descriptor's identity strings (KeyboardExtensionABI.h). Each check returns what is
/// wrong, or `nil`.
public enum DescriptorRules {
    /// Reverse-DNS: two or more dot-separated labels of ASCII letters, digits and '-', no label empty
    /// or starting with '-'.
    public static func identifierProblem(_ identifier: String) -> String? {
        let labels = identifier.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return "is not reverse-DNS (expected e.g. com.example.keyboard)" }
        for label in labels {
            if label.isEmpty { return "has an empty label" }
            if label.first == "-" { return "has a label starting with '-'" }
            if let bad = label.unicodeScalars.first(where: { !($0.isASCII && (isAlphanumeric($0) || $0 == "-")) }) {
                return "has '\(bad)', which is not an ASCII letter, digit, '-' or '.'"
            }
        }
        return nil
    }

    /// Semantic versioning 2.0: MAJOR.MINOR.PATCH, numbers without leading zeros, optional
    /// -prerelease and +build of dot-separated [0-9A-Za-z-] identifiers.
    static func versionProblem(_ version: String) -> String? {
        let expected = "is not a semantic version (expected MAJOR.MINOR.PATCH, e.g. 1.0.0)"
        var core = Substring(version)
        var build: Substring?
        var prerelease: Substring?
        if let plus = core.firstIndex(of: "+") {
            build = core[core.index(after: plus)...]
            core = core[..<plus]
        }
        if let dash = core.firstIndex(of: "-") {
            prerelease = core[core.index(after: dash)...]
            core = core[..<dash]
        }
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3,
              numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) && ($0 == "0" || $0.first != "0") })
        else { return expected }
        for part in [prerelease, build].compactMap({ $0 }) {
            let identifiers = part.split(separator: ".", omittingEmptySubsequences: false)
            guard identifiers.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0) || $0 == "-") } })
            else { return expected }
        }
        return nil
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
