/// The links an event carries for people to follow (`url`, the event page, and `detail`, its
/// GeoJSON): http and https only. Anything else (`javascript:`, `data:`, `file:`) is dropped
/// where events enter the store, and read as missing wherever an export reads one (a store
/// written before, or by another tool): the event itself is good, only the link is not.
public enum WebLink {
    /// Whether `link` starts with `http://` or `https://`, in any case (ASCII), with nothing
    /// before it (a browser strips leading spaces and controls, so ` javascript:` is not let by).
    public static func isWeb(_ link: String) -> Bool {
        func starts(with scheme: StaticString) -> Bool {
            var bytes = link.utf8.makeIterator()
            return UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount).allSatisfy { expected in
                guard let byte = bytes.next() else { return false }
                return (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected
            }
        }
        return starts(with: "http://") || starts(with: "https://")
    }
}

extension QuakeEvent {
    /// Drops `url` and `detail` when they are not http(s) links; returns the names and values dropped.
    public mutating func dropLinksThatAreNotWeb() -> [(field: String, value: String)] {
        var dropped: [(field: String, value: String)] = []
        if let url, !WebLink.isWeb(url) { dropped.append(("url", url)); self.url = nil }
        if let detail, !WebLink.isWeb(detail) { dropped.append(("detail", detail)); self.detail = nil }
        return dropped
    }
}
