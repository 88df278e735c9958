/// The first name met of each file that has other names (`st_nlink` > 1), by identity, so that a later name is
/// made a hard link to the first one's copy. One table serves every source of a copy, as with `cp -a`: a file
/// named in two trees, or twice on the command line, is copied once.
///
/// A backup made with `cp -al` or rsnapshot is a tree whose every file has another name outside it: one entry
/// each, never met again. So the table is compact: the paths' bytes in one buffer, and for each file its
/// identity, where its path lies and how many of its names are still to come (an entry goes once they all
/// came) — about 50 bytes and the path's, where a dictionary of strings took several hundred.
package struct FirstNames: Sendable {
    private struct Entry: Sendable {
        /// The path's bytes in ``FirstNames/bytes``.
        var start: Int
        var count: Int32
        /// Names of the file not met yet.
        var remaining: Int32
    }

    private var bytes: [UInt8] = []
    private var entries: [FileIdentity: Entry] = [:]
    /// Bytes of ``bytes`` that entries still use; the rest belonged to entries gone.
    private var liveBytes = 0

    package init() {}

    /// How many files are remembered.
    var count: Int { entries.count }

    /// ``meet(_:linkCount:at:)`` for the entry `status` describes, met at `path` below the destination: nil
    /// for a directory and for an entry without other names. A symbolic link, FIFO, socket or device may have
    /// other names too, which `cp -a` keeps as one entry.
    package mutating func meet(_ status: FileStatus, at path: String) -> String? {
        guard status.kind != .directory, status.linkCount > 1 else { return nil }
        return meet(status.identity, linkCount: status.linkCount, at: path)
    }

    /// The file `identity` with `linkCount` names, met at `path`: the path of its first name met, when this is
    /// a later one (counted; after the last of its names the file is forgotten); nil for the first, which is
    /// remembered.
    mutating func meet(_ identity: FileIdentity, linkCount: Int, at path: String) -> String? {
        if var entry = entries[identity] {
            let first = String(decoding: bytes[entry.start..<entry.start + Int(entry.count)], as: UTF8.self)
            entry.remaining -= 1
            if entry.remaining > 0 {
                entries[identity] = entry
            } else {
                entries[identity] = nil
                liveBytes -= Int(entry.count)
                compactIfSparse()
            }
            return first
        }
        let start = bytes.count
        bytes.append(contentsOf: path.utf8)
        let count = bytes.count - start
        liveBytes += count
        entries[identity] = Entry(start: start, count: Int32(count), remaining: Int32(clamping: linkCount - 1))
        return nil
    }

    /// Copies the live paths into a new buffer once most of the buffer belongs to files forgotten.
    private mutating func compactIfSparse() {
        guard bytes.count > 65_536, liveBytes < bytes.count / 4 else { return }
        var kept: [UInt8] = []
        kept.reserveCapacity(liveBytes)
        entries = entries.mapValues { entry in
            var moved = entry
            moved.start = kept.count
            kept.append(contentsOf: bytes[entry.start..<entry.start + Int(entry.count)])
            return moved
        }
        bytes = kept
    }
}
