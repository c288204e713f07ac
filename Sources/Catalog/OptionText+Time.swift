import QuakeCommon

extension OptionText {
    /// An ISO-8601 time (UTC unless a zone is given), in milliseconds since 1970.
    public static func time(_ text: String) throws -> Int64 {
        guard let ms = ISOTime.parse(text) else {
            throw problem("\"\(text.prefix(80))\" is not an ISO-8601 time (e.g. 2024-01-31 or 2024-01-31T12:00:00Z)")
        }
        return ms
    }
}
