import Foundation
import QuakeCommon

/// What one publish did.
public struct PublishSummary: Sendable, Codable, Equatable {
    /// `s3://BUCKET/PREFIX`.
    public var target: String
    /// The bundle version the pointer names.
    public var version: String
    /// False when the pointer already named this version as it would now: nothing was written.
    public var changed: Bool
    /// The version whose app database and MBTiles the pointer names (the version itself for a new base).
    public var base: String
    /// Older versions the pointer offers deltas from.
    public var deltaEntries: Int
    /// Bytes of every object the pointer names (each once).
    public var pointerBytes: Int64
    public var uploadedObjects: Int
    public var uploadedBytes: Int64
    /// Bytes the store copied itself (parts of the previous PMTiles object).
    public var copiedBytes: Int64
    /// Objects already in the store, and their bytes.
    public var skippedObjects: Int
    public var skippedBytes: Int64
    /// Objects pruned after the pointer moved.
    public var deletedObjects: Int
    public var seconds: Double

    /// One line for logs and cron mail.
    public var line: String {
        guard changed else { return "publish: \(target) already names \(version): nothing new" }
        let share = pointerBytes > 0 ? String(format: "%.1f%%", Double(uploadedBytes) / Double(pointerBytes) * 100) : "0%"
        var text = "publish \(target): version \(version), uploaded \(Format.count(uploadedObjects, "object")) "
            + "\(Format.bytes(Int(uploadedBytes))) (\(share) of the \(Format.bytes(Int(pointerBytes))) the pointer names)"
        if copiedBytes > 0 { text += ", \(Format.bytes(Int(copiedBytes))) copied in the store" }
        text += ", skipped \(Format.count(skippedObjects)) already there (\(Format.bytes(Int(skippedBytes))))"
        text += base == version ? ", new base" : ", base \(base) + deltas"
        if deletedObjects > 0 { text += ", pruned \(Format.count(deletedObjects, "object"))" }
        return text + String(format: " in %.1f s", seconds)
    }
}
