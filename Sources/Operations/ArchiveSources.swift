import QuakeCatalog
import QuakeCommon
import QuakeFetch
import QuakeStore

/// The bridge between the fetch archive and the store: every archived page as an index source, and the archived details.
public enum ArchiveSources {
    /// Every page of the workspace archive, in arrival order (the store skips those it has indexed).
    public static func all(in workspace: Workspace) throws -> [IndexSource] {
        try Archive.pages(in: workspace).map {
            IndexSource.archivePage(sequence: $0.sequence, file: $0.file, sha256: $0.sha256,
                                    requestURL: $0.requestURL, eventCount: $0.eventCount)
        }
    }

    /// The archive's details (quake details fetched, and dropped), in arrival order.
    public static func details(in workspace: Workspace) throws -> [ArchivedDetail] {
        try Archive.details(in: workspace)
    }
}
