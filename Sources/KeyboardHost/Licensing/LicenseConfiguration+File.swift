import Foundation
import KeyboardModel

extension LicenseConfiguration {
    /// A license file: JSON with `licenseKey` and `licenseSecret`, as `kbhost license issue` prints.
    /// Only its form is checked here; ``LicenseVerifier`` says whether it is valid.
    public static func read(_ path: String) throws(LicenseFileError) -> LicenseConfiguration {
        switch FileContents.read(path) {
        case .failure(let problem):
            throw .unreadable(path: path, reason: problem.description)
        case .success(let data):
            do {
                return try JSONInput.decode(LicenseConfiguration.self, from: data)
            } catch {
                throw .field(path: path, field: nil, problem: DecodingProblem(error).description)
            }
        }
    }
}
