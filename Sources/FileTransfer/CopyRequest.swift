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
        self.name = name ?? String(source.split(separator: "/", omittingEmptySubsequences: true).last ?? "")
        self.overwrite = overwrite
    }

    /// The final path of the copy.
    var destinationPath: String { destinationDirectory + "/" + name }

    /// The path of the hidden partial while the copy is in progress.
    public var partialPath: String { destinationDirectory + "/" + StagedFile.partialName(for: name) }
}
