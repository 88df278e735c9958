/// One file to copy: where from, into which directory, under which name.
public struct CopyRequest: Hashable, Sendable, Codable {
    /// The caller's identity for this transfer, recorded in the journal's intentions.
    public var id: String
    /// The source file's path.
    public var source: String
    /// The directory that receives the file (and holds the journal and the partial).
    public var destinationDirectory: String
    /// The final file name inside `destinationDirectory`; the journal keys its entries by it.
    public var name: String
    /// Replace a file under the final name that this journal did not write.
    public var overwrite: Bool

    /// Describes a copy; `name` defaults to the source's last path component.
    public init(id: String, source: String, destinationDirectory: String, name: String? = nil, overwrite: Bool = false)
    {
        self.id = id
        self.source = source
        self.destinationDirectory = destinationDirectory
        self.name = name ?? Self.name(of: source)
        self.overwrite = overwrite
    }

    /// The name a copy of `source` gets by default: its last path component, trailing slashes ignored (`""` for
    /// `/`). Found in the path's bytes, as the system separates components: a `/` is always its own byte, even
    /// before a combining mark that a split by characters would have kept with it. Made for every file of a
    /// tree, so it looks at the bytes after the last separator instead of splitting the whole path.
    public static func name(of source: String) -> String {
        let bytes = source.utf8
        let slash = UInt8(ascii: "/")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        let start = bytes[..<end].lastIndex(of: slash).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The final path of the copy.
    var destinationPath: String { destinationDirectory + "/" + name }

    /// The path of the hidden partial while the copy is in progress.
    public var partialPath: String { destinationDirectory + "/" + StagedFile.partialName(for: name) }
}
