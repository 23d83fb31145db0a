import KeyboardHost

extension SessionError {
    /// The error as kbhost says it: the line, and for a refused license what to do about it with
    /// kbhost's own flags (the library's description names no flags, for KeyboardTestHost says it too).
    var advice: String {
        guard case .unlicensed(_, let problem) = self else { return description }
        let next: String
        switch problem {
        case .missing:
            next = "hand it one with --license FILE (`kbhost license issue` makes one), or load it with --allow-unlicensed while developing"
        case .unknownIssuer:
            next = "trust the issuer with --trust PUBLIC-KEY-FILE (or \"trustedIssuers\" in ./kbhost.json; the repository's own trusts its samples' issuer), or load it with --allow-unlicensed while developing"
        case .badSignature, .malformed:
            next = "issue the license again (`kbhost license issue`) and hand it over with --license FILE"
        case .otherExtension:
            next = "issue a license for this extension's identifier (`kbhost license issue --extension ID`)"
        case .expired:
            next = "issue a new license (`kbhost license issue --expires YYYY-MM-DD`)"
        }
        return "\(description); \(next)"
    }
}
