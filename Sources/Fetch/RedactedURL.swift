import Foundation

extension URL {
    /// The URL as logs, messages, the journal and the archive show it: a user name and
    /// password given in `--service` (`https://user:secret@host/…`) become `***`, so they
    /// never reach a log file or a bundle.
    var redacted: String {
        guard user != nil || password != nil,
              var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return absoluteString }
        components.user = "***"
        components.password = nil
        return components.string ?? absoluteString
    }
}
