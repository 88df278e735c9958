import FileTransfer
import ScreenStates

/// The transfers of one `statetui copy` command: one ``CopyTransfer`` per source, sharing the
/// destination's journal. Built only after the destination passed its preflight check.
package struct CopySession: Sendable {
    /// The transfers, in the order the sources were given.
    package let transfers: [CopyTransfer]
    /// The destination directory's journal.
    package let journal: CopyJournal

    /// Checks the destination, opens its journal and prepares one transfer per source.
    ///
    /// Throws `destinationNotWritableDirectory` (nothing started) or the journal's failure to open.
    /// Two sources with the same file name would write the same destination file: refused up front.
    package init(
        sources: [String], destinationDirectory: String, overwrite: Bool, options: CopyOptions
    ) throws(CopySessionError) {
        do {
            try Destination.validate(destinationDirectory)
        } catch {
            throw .destination(error)
        }
        var seen: [String: String] = [:]
        for source in sources {
            let name = CopyRequest(id: "", source: source, destinationDirectory: destinationDirectory).name
            guard !name.isEmpty, name != ".", name != ".." else { throw .unnamedSource(source) }
            if let other = seen[name] { throw .sameName(name, first: other, second: source) }
            seen[name] = source
        }
        do {
            journal = try CopyJournal(directory: destinationDirectory)
        } catch {
            throw .destination(error)
        }
        let journal = self.journal
        transfers = sources.map { source in
            CopyTransfer(
                source: source, destinationDirectory: destinationDirectory, overwrite: overwrite, journal: journal,
                options: options)
        }
    }
}

/// Why a copy session could not be prepared: nothing was started.
package enum CopySessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The destination is not a writable directory, or its journal cannot be opened.
    case destination(TransferError)
    /// Two sources share a file name, so both would be copied onto one destination file.
    case sameName(String, first: String, second: String)
    /// A source path has no file name to copy onto (`/`, `.`, `..`).
    case unnamedSource(String)

    /// One line naming the cause.
    package var description: String {
        switch self {
        case .destination(let error):
            error.description
        case .sameName(let name, let first, let second):
            "\(DisplayText.escaped(first)) and \(DisplayText.escaped(second)) would both be copied to "
                + "'\(DisplayText.escaped(name))'"
        case .unnamedSource(let source):
            "'\(DisplayText.escaped(source))' names no file to copy"
        }
    }
}
