/// A file's path kept as its directory's path and its name, joined only when a message asks for it: a copy names
/// its partial in no message unless something fails, and joining the two for each file of a tree, in case, made
/// two strings a file.
struct DeferredPath: Sendable {
    /// The directory's path; nil when `name` is the whole path.
    private let directory: String?
    private let name: String

    /// `name` in the directory at `directory`.
    init(directory: String, name: String) {
        self.directory = directory
        self.name = name
    }

    /// A path known whole.
    init(_ path: String) {
        directory = nil
        name = path
    }

    /// The path.
    var string: String { directory.map { Self.joining($0, name) } ?? name }

    /// `directory/name`, made in one string.
    static func joining(_ directory: String, _ name: String) -> String {
        var path = ""
        path.reserveCapacity(directory.utf8.count + 1 + name.utf8.count)
        path += directory
        path += "/"
        path += name
        return path
    }
}
