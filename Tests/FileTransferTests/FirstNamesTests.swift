import Testing

@testable import FileTransfer

/// The walk's memory of hard-linked files: a later name finds the first, and a file is forgotten once all its
/// names came, so a tree whose files all have a name outside it holds only what it must.
@Suite struct FirstNamesTests {
    static func identity(_ inode: Int) -> FileIdentity { FileIdentity(device: 1, inode: UInt64(inode)) }

    /// Three names of one file: the second and third find the first; after the third the file is forgotten, so a
    /// fourth name (a link made during the walk) is taken for a first name again. Names are kept byte for byte.
    @Test func laterNamesFindTheFirstUntilAllCame() {
        var names = FirstNames()
        let first = "tree/b\u{10FFFF}d/a"
        #expect(names.meet(Self.identity(7), linkCount: 3, at: first) == nil)
        #expect(names.meet(Self.identity(8), linkCount: 2, at: "tree/other") == nil)
        #expect(names.meet(Self.identity(7), linkCount: 3, at: "tree/c") == first)
        #expect(names.count == 2)
        #expect(names.meet(Self.identity(7), linkCount: 3, at: "tree/sub/b") == first)
        #expect(names.count == 1)
        #expect(names.meet(Self.identity(7), linkCount: 4, at: "tree/late") == nil)
        #expect(names.meet(Self.identity(8), linkCount: 2, at: "tree/other2") == "tree/other")
        #expect(names.count == 1)
    }

    /// Many files met twice, so most of the buffer belongs to forgotten ones and it is compacted: every file still
    /// remembered finds its own first path afterwards.
    @Test func compactingKeepsEveryPathStillRemembered() {
        var names = FirstNames()
        let paths = (0..<20_000).map { "tree/directory-\($0 / 100)/file-with-a-long-name-\($0).jpg" }
        for (index, path) in paths.enumerated() {
            #expect(names.meet(Self.identity(index), linkCount: 2, at: path) == nil)
        }
        for index in 0..<19_000 {
            #expect(names.meet(Self.identity(index), linkCount: 2, at: "second") == paths[index])
        }
        #expect(names.count == 1_000)
        let found = (19_000..<20_000).map { names.meet(Self.identity($0), linkCount: 2, at: "second") }
        #expect(found == Array(paths[19_000...]))
        #expect(names.count == 0)
    }
}
