import Crypto
import CryptoExtras
import Foundation

/// Passcodes kept as salted scrypt hashes, one record per user in a folder of the storage the host
/// gives the extension (`<storage>/passcodes/`, mode 0700), with the failed-attempt count and the
/// lockout, so both survive a restart of the host.
///
/// Authentication allows ``maximumAttempts`` (5): each failure says how many are left (4 after the
/// first … 1 before the last); the last failure locks the passcode out; a success resets the count.
/// A locked-out passcode stays locked until its folder is removed (the issuer's reset, in a real SDK).
///
/// What holds, and against whom (the sample's README has the threat model):
/// - **Attempts are serialized** across processes: every read-and-write of the records holds an
///   exclusive `flock` on `.lock`, so parallel guesses are counted one by one.
/// - **An attempt is counted before it is checked**, and a guess whose count cannot be written is
///   refused (fail closed): killing the keyboard mid-check, or making the record unwritable, does not
///   give a free guess.
/// - **Records are sealed**: each carries an HMAC-SHA256 over its fields and its user, with a random
///   per-install key kept beside them (`.key`, 0600); a ledger of the users with a passcode
///   (`.enrolled.json`) is sealed the same way. A record changed, swapped or removed, a ledger changed or
///   removed, a key removed — each locks out (``PasscodeStoreError/tampered(_:)``) rather than resetting.
///   The key is beside the records: this stops edits by hand and other programs of the same user that
///   know only the format, not a program that reads the key. Other OS users cannot read or write any
///   of it (0700 and 0600).
struct PasscodeStore {
    static let maximumAttempts = 5

    /// scrypt's r and p; N is 2^``cost``. Stored in each record, so a record keeps the cost it was
    /// made with and a later version can raise it.
    static let blockSize = 8, parallelism = 1
    /// log2 of scrypt's N for new passcodes: 15 (32 MiB) by default.
    static let defaultCost = 15

    let folder: String
    let cost: Int

    init(storage: String, cost: Int = PasscodeStore.defaultCost) {
        folder = storage + "/passcodes"
        self.cost = cost
    }

    /// User identifiers become file names: letters, digits, `.`, `_`, `-`; 1–64 of them.
    static func isValidUser(_ user: String) -> Bool {
        !user.isEmpty && user.count <= 64 && !user.hasPrefix(".")
            && user.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    private func path(for user: String) -> String { folder + "/" + user + ".json" }
    private var keyPath: String { folder + "/.key" }
    private var ledgerPath: String { folder + "/.enrolled.json" }

    /// Whether `user` has a passcode: a record, or the ledger's word for one (a record removed behind
    /// the keyboard's back still counts, and then locks out).
    func exists(user: String) -> Bool {
        FileManager.default.fileExists(atPath: path(for: user))
            || ((try? locked { () throws(PasscodeStoreError) in try readLedger(key: try readKey()) })?.contains(user) ?? false)
    }

    /// Stores `passcode` for `user` (replacing any), with a fresh salt and no failed attempts.
    func setPasscode(_ passcode: SecretDigits, for user: String) throws(PasscodeStoreError) {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let hash = try Self.hash(passcode, salt: salt, rounds: 1 << cost, blockSize: Self.blockSize, parallelism: Self.parallelism)
        try locked { () throws(PasscodeStoreError) in
            let key = try readKey(creating: true)
            var users = try readLedger(key: key)
            try write(Record(
                algorithm: "scrypt", rounds: 1 << cost, blockSize: Self.blockSize, parallelism: Self.parallelism,
                salt: Data(salt).base64EncodedString(), hash: hash.base64EncodedString(), failedAttempts: 0, lockedOut: false
            ), for: user, key: key)
            if !users.contains(user) {
                users.append(user)
                try writeLedger(users, key: key)
            }
        }
    }

    /// Checks `passcode` against the stored one. The attempt is counted (and written) first; a
    /// success then resets the count.
    func authenticate(_ passcode: SecretDigits, user: String) throws(PasscodeStoreError) {
        try locked { () throws(PasscodeStoreError) in
            let key = try readKey()
            var record = try read(user, key: key)
            if record.lockedOut { throw .lockedOut }
            guard let salt = Data(base64Encoded: record.salt), let expected = Data(base64Encoded: record.hash) else {
                throw .unreadable(path: path(for: user), reason: "salt or hash is not base64")
            }
            // Counted before the check: a guess whose count cannot be kept is not made.
            record.failedAttempts += 1
            record.lockedOut = record.failedAttempts >= Self.maximumAttempts
            try write(record, for: user, key: key)
            let actual = try Self.hash(passcode, salt: Array(salt), rounds: record.rounds, blockSize: record.blockSize, parallelism: record.parallelism)
            if Self.constantTimeEqual(actual, expected) {
                record.failedAttempts = 0
                record.lockedOut = false
                try write(record, for: user, key: key)
                return
            }
            if record.lockedOut { throw .lockedOut }
            throw .authenticationFailed(attemptsRemaining: Self.maximumAttempts - record.failedAttempts)
        }
    }

    /// The stored record's state, for showing (never the hash).
    func status(user: String) throws(PasscodeStoreError) -> (failedAttempts: Int, lockedOut: Bool) {
        try locked { () throws(PasscodeStoreError) in
            let record = try read(user, key: try readKey())
            return (record.failedAttempts, record.lockedOut)
        }
    }

    // MARK: Files

    struct Record: Codable {
        var algorithm: String
        var rounds: Int
        var blockSize: Int
        var parallelism: Int
        var salt: String
        var hash: String
        var failedAttempts: Int
        var lockedOut: Bool
        /// HMAC-SHA256 of the fields above and the user's name (``seal(for:key:)``), base64.
        var seal: String?

        /// What the seal covers: every field, and whose record it is (so records cannot be swapped).
        func sealed(for user: String, key: SymmetricKey) -> String {
            let fields = [user, algorithm, "\(rounds)", "\(blockSize)", "\(parallelism)", salt, hash, "\(failedAttempts)", "\(lockedOut)"]
            return PasscodeStore.mac("record\n" + fields.joined(separator: "\n"), key: key)
        }
    }

    struct Ledger: Codable {
        var users: [String]
        var seal: String
    }

    /// Runs `body` holding the folder's lock: one process at a time reads and writes the records.
    private func locked<T>(_ body: () throws(PasscodeStoreError) -> T) throws(PasscodeStoreError) -> T {
        try makeFolder()
        let lockPath = folder + "/.lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unwritable(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .unwritable(path: lockPath, reason: "cannot lock: \(String(cString: strerror(errno)))") }
        }
        return try body()
    }

    private func makeFolder() throws(PasscodeStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: folder, reason: error.localizedDescription)
        }
    }

    /// The install's key; made (32 random bytes, 0600) with the first passcode when `creating`. A key
    /// that is gone while records or the ledger remain is tampering.
    private func readKey(creating: Bool = false) throws(PasscodeStoreError) -> SymmetricKey {
        if let data = FileManager.default.contents(atPath: keyPath) {
            guard data.count == 32 else { throw .tampered("the integrity key was changed") }
            return SymmetricKey(data: data)
        }
        if !recordFiles().isEmpty || FileManager.default.fileExists(atPath: ledgerPath) {
            throw .tampered("the integrity key was removed")
        }
        guard creating else { throw .noPasscodes }
        let key = SymmetricKey(size: .bits256)
        try writeFile(keyPath, key.withUnsafeBytes { Data($0) })
        return key
    }

    /// The users' records in the folder (not the ledger, not a temporary file).
    private func recordFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }  // users never start with "."
    }

    private func read(_ user: String, key: SymmetricKey) throws(PasscodeStoreError) -> Record {
        let path = path(for: user)
        let users = try readLedger(key: key)  // checked on every read: a ledger removed is noticed at once
        guard let data = FileManager.default.contents(atPath: path) else {
            if users.contains(user) { throw .tampered("the record of '\(user)' was removed") }
            throw .noPasscode(user: user)
        }
        let record: Record
        do {
            record = try JSONDecoder().decode(Record.self, from: data)
        } catch {
            throw .tampered("the record of '\(user)' was changed")
        }
        guard let seal = record.seal, Self.constantTimeEqual(Data(seal.utf8), Data(record.sealed(for: user, key: key).utf8)) else {
            throw .tampered("the record of '\(user)' was changed")
        }
        guard record.algorithm == "scrypt" else { throw .unreadable(path: path, reason: "unknown algorithm '\(record.algorithm)'") }
        return record
    }

    private func write(_ record: Record, for user: String, key: SymmetricKey) throws(PasscodeStoreError) {
        var record = record
        record.seal = record.sealed(for: user, key: key)
        try writeFile(path(for: user), try encode(record))
    }

    /// The users with a passcode. Missing while a record is there: tampering (the first record and the
    /// ledger are written together, the record first).
    private func readLedger(key: SymmetricKey) throws(PasscodeStoreError) -> [String] {
        guard let data = FileManager.default.contents(atPath: ledgerPath) else {
            if !recordFiles().isEmpty { throw .tampered("the list of passcodes was removed") }
            return []
        }
        guard let ledger = try? JSONDecoder().decode(Ledger.self, from: data),
              Self.constantTimeEqual(Data(ledger.seal.utf8), Data(Self.ledgerSeal(ledger.users, key: key).utf8))
        else { throw .tampered("the list of passcodes was changed") }
        return ledger.users
    }

    private func writeLedger(_ users: [String], key: SymmetricKey) throws(PasscodeStoreError) {
        try writeFile(ledgerPath, try encode(Ledger(users: users, seal: Self.ledgerSeal(users, key: key))))
    }

    private static func ledgerSeal(_ users: [String], key: SymmetricKey) -> String {
        mac("ledger\n" + users.joined(separator: "\n"), key: key)
    }

    private static func mac(_ text: String, key: SymmetricKey) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)).base64EncodedString()
    }

    private func encode(_ value: some Encodable) throws(PasscodeStoreError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .unwritable(path: folder, reason: "\(error)") }
    }

    /// Writes through a temporary file of a name of its own (mkstemp), 0600 before anything is in it,
    /// synced, then renamed over the old one: a reader sees the old file or the new, never half.
    private func writeFile(_ target: String, _ data: Data) throws(PasscodeStoreError) {
        var template = Array((target + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .unwritable(path: target, reason: String(cString: strerror(errno))) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // not into a child the keyboard starts
        fchmod(descriptor, 0o600)  // mkstemp makes it 0600; said again whatever the libc
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, target) == 0 else {
            let reason = written == data.count && synced ? String(cString: strerror(errno)) : "short write"
            unlink(temporary)
            throw .unwritable(path: target, reason: reason)
        }
    }

    private static func hash(
        _ passcode: SecretDigits, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int
    ) throws(PasscodeStoreError) -> Data {
        do {
            // The passcode's bytes go to scrypt in place: no copy of them is made here.
            let key = try passcode.withBytes { bytes in
                try KDF.Scrypt.deriveKey(
                    from: bytes, salt: salt, outputByteCount: 32, rounds: rounds, blockSize: blockSize, parallelism: parallelism
                )
            }
            return key.withUnsafeBytes { Data($0) }
        } catch {
            throw .hashFailed("\(error)")
        }
    }

    private static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

enum PasscodeStoreError: Error, Equatable, CustomStringConvertible {
    case noPasscode(user: String)
    /// No passcode has been made in this folder yet.
    case noPasscodes
    /// The records were changed, removed or swapped outside this keyboard: the passcode is locked out.
    case tampered(String)
    case authenticationFailed(attemptsRemaining: Int)
    case lockedOut
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case hashFailed(String)

    var description: String {
        switch self {
        case .noPasscode(let user): "no passcode for '\(user)'"
        case .noPasscodes: "no passcode has been made yet"
        case .tampered(let what): "locked out: \(what) outside this keyboard; remove the passcodes folder to start again"
        case .authenticationFailed(let remaining): "wrong passcode; \(remaining) attempt\(remaining == 1 ? "" : "s") left"
        case .lockedOut: "locked out after \(PasscodeStore.maximumAttempts) failed attempts"
        case .unreadable(let path, let reason): "passcode record '\(path)': \(reason)"
        case .unwritable(let path, let reason): "cannot write the passcode record '\(path)': \(reason)"
        case .hashFailed(let reason): "cannot hash the passcode: \(reason)"
        }
    }
}
