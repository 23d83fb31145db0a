import ArgumentParser
import Foundation
import KeyboardHost

struct LicenseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "license",
        abstract: "Make issuer keys, issue licenses, and check them.",
        discussion: """
            A license is a LicenseConfiguration(licenseKey:licenseSecret:): the key is what it grants \
            (extension id, licensee, expiry, features, issuer), the secret an Ed25519 signature over it by \
            the issuer. A host trusts issuers by their public key files.
            """,
        subcommands: [Keygen.self, Issue.self, Verify.self]
    )

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an issuer's key pair: <name>.private.json (keep it secret) and <name>.public.json."
        )

        @Option(help: "The issuer's name, as licenses will show it.")
        var issuer: String

        @Option(help: ArgumentHelp("Folder to write the two files to.", valueName: "folder"))
        var out: String = "."

        func run() throws {
            let issuer = LicenseIssuer(name: self.issuer)
            let slug = String(self.issuer.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
            let folder = URL(fileURLWithPath: out)
            let privateURL = folder.appendingPathComponent("\(slug).private.json")
            let publicURL = folder.appendingPathComponent("\(slug).public.json")
            guard !FileManager.default.fileExists(atPath: privateURL.path) else {
                throw fail("'\(privateURL.path)' exists already; not overwriting a private key", ExitStatus.badArguments)
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                // Created 0600 before the key is written, so it is never readable by others.
                guard FileManager.default.createFile(atPath: privateURL.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteNoPermission)
                }
                try issuer.privateKeyFile().write(to: privateURL)
                try issuer.trusted.publicKeyFile().write(to: publicURL)
            } catch {
                throw fail("cannot write the key files in '\(out)': \(error.localizedDescription)", ExitStatus.badArguments)
            }
            print("issuer \(issuer.name), key \(issuer.keyIdentifier)")
            print("private key: \(privateURL.path) (keep it secret)")
            print("public key:  \(publicURL.path) (give it to hosts: --trust)")
        }
    }

    struct Issue: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issue a license; prints its key and secret as JSON.")

        @Option(help: ArgumentHelp("The issuer's private key file.", valueName: "file"))
        var key: String

        @Option(name: .customLong("extension"), help: "The extension's reverse-DNS identifier.")
        var extensionIdentifier: String

        @Option(help: "Who the license is for.")
        var licensee: String

        @Option(help: ArgumentHelp("The last day it is valid, UTC.", valueName: "YYYY-MM-DD"))
        var expires: String

        @Option(name: .customLong("feature"), help: "A feature it grants (repeatable).")
        var features: [String] = []

        @Flag(help: "Issue it even if --expires is past, to test how a keyboard meets an expired license.")
        var allowExpired = false

        func run() throws {
            if !allowExpired, License.hasExpired(expires, at: Date()) == true {
                throw fail(
                    "--expires \(expires) is past, so the license would be refused at once; give a later day, or --allow-expired to test an expired license",
                    ExitStatus.badArguments
                )
            }
            let issuer: LicenseIssuer
            do {
                issuer = try LicenseIssuer.read(privateKeyFile: key)
            } catch {
                throw fail("--key: \(error.description)", ExitStatus.badArguments)
            }
            let license: LicenseConfiguration
            do {
                license = try issuer.issue(extensionIdentifier: extensionIdentifier, licensee: licensee, expires: expires, features: features)
            } catch let error as LicenseError {
                throw fail("--expires '\(expires)' is not a day in the form YYYY-MM-DD (\(error))", ExitStatus.badArguments)
            }
            print(try JSONOutput.encode(license))
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a license against trusted issuers.",
            discussion: "Exit status: 0 valid; 1 refused (the reason on one line); 64 bad arguments."
        )

        @Option(help: ArgumentHelp("A trusted issuer's public key file (repeatable).", valueName: "file"))
        var trust: [String] = []

        @Option(name: .customLong("extension"), help: "The extension it must be for.")
        var extensionIdentifier: String

        @Option(help: ArgumentHelp("A JSON file with licenseKey and licenseSecret (as `issue` prints).", valueName: "file"))
        var license: String

        @Option(help: ArgumentHelp("Check as of this day instead of today.", valueName: "YYYY-MM-DD"))
        var on: String?

        func run() throws {
            var issuers: [TrustedIssuer] = []
            for path in trust {
                do {
                    issuers.append(try TrustedIssuer.read(publicKeyFile: path))
                } catch {
                    throw fail("--trust: \(error.description)", ExitStatus.badArguments)
                }
            }
            let configuration: LicenseConfiguration
            do {
                configuration = try LicenseConfiguration.read(license)
            } catch {
                throw fail("--license: \(error.description)", ExitStatus.badArguments)
            }
            var day = Date()
            if let on {
                guard let parsed = License.day(on) else {
                    throw fail("--on '\(on)' is not a day in the form YYYY-MM-DD", ExitStatus.badArguments)
                }
                day = parsed
            }
            do {
                let valid = try LicenseVerifier(trusting: issuers).verify(configuration, for: extensionIdentifier, on: day)
                print("valid: \(valid.extensionIdentifier) for \(valid.licensee) until \(valid.expires), issued by \(valid.issuer)"
                    + (valid.features.isEmpty ? "" : "; features: \(valid.features.joined(separator: ", "))"))
            } catch {
                throw fail(error.description, ExitStatus.failure)
            }
        }
    }
}
