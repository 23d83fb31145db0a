import ArgumentParser
import Foundation
import KeyboardHost

/// What `run` and `repl` share: how the host treats extensions (licenses, context policy, latency).
struct HostOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The host configuration (trusted issuers); default: ./\(HostConfiguration.defaultFileName) if there is one.",
        valueName: "file"
    ))
    var config: String?

    @Option(help: ArgumentHelp("Trust this license issuer's public key file too (repeatable).", valueName: "file"))
    var trust: [String] = []

    @Flag(help: "Load extensions without checking their licenses. For development only; kbhost says so.")
    var allowUnlicensed = false

    @Option(help: ArgumentHelp("How much of the document the extension's proxy sees: \(ContextPolicy.forms).", valueName: "policy"))
    var policy: ContextPolicy = .sentence

    @Option(help: ArgumentHelp(
        "Milliseconds the host waits before applying what the extension posts, to emulate iOS's IPC.", valueName: "ms"
    ))
    var latency: Int = 0

    func validate() throws {
        if latency < 0 { throw ValidationError("--latency must be 0 or more milliseconds, not \(latency)") }
    }

    /// How sessions check licenses: the configuration's and --trust's issuers, unless unlicensed
    /// extensions are allowed (said loudly on standard error).
    func licensing() throws -> Licensing {
        var configuration = HostConfiguration()
        let path = config ?? (FileManager.default.fileExists(atPath: HostConfiguration.defaultFileName) ? HostConfiguration.defaultFileName : nil)
        if let path {
            do {
                configuration = try HostConfiguration.read(path)
            } catch {
                throw fail(error.description, ExitStatus.badArguments)
            }
        }
        if allowUnlicensed || configuration.allowUnlicensed {
            printError("kbhost: warning: licenses are not checked (\(allowUnlicensed ? "--allow-unlicensed" : "allowUnlicensed in \(path ?? "")")): for development only")
            return .notChecked
        }
        configuration.trustedIssuerFiles += trust
        do {
            return .required(try configuration.verifier())
        } catch {
            throw fail("trusted issuer: \(error.description)", ExitStatus.badArguments)
        }
    }
}
