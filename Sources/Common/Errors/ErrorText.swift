import Foundation

/// The words for an error, as a person reads them in a log line or in `status`.
public enum ErrorText {
    /// Foundation's file errors describe themselves as a dump of their fields (domain, code,
    /// user info): they are told as the file and the system's reason ("/x/bundles: Not a
    /// directory"). Every other error as it describes itself.
    public static func message(_ original: any Error) -> String {
        let error = original as NSError
        guard error.domain == NSCocoaErrorDomain else { return "\(original)" }
        let path = error.userInfo[NSFilePathErrorKey] as? String ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let reason = underlying.map { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : $0.localizedDescription }
            ?? error.localizedDescription
        return path.map { "\($0): \(reason)" } ?? reason
    }
}
