import Testing

@testable import FileTransfer

/// What a copy's errors say.
@Suite struct TransferErrorTests {
    static let hint = "(a copy keeps one open for each directory level on each side: raise the limit with ulimit -n)"

    /// "Too many open files" says what a user can do: a tree deeper than the open-files limit allows reaches it,
    /// as a copy keeps a descriptor a directory level; every other reason is the OS's text alone.
    @Test(arguments: [
        (
            TransferError.sourceUnreadable(path: "/s/d1/d2", reason: .tooManyOpenFiles),
            "cannot read /s/d1/d2: Too many open files \(hint)"
        ),
        (
            TransferError.io(operation: "open directory", path: "/d/d1", reason: .tooManyOpenFiles),
            "cannot open directory /d/d1: Too many open files \(hint)"
        ),
        (
            TransferError.io(operation: "open directory", path: "/d/d1", reason: .permissionDenied),
            "cannot open directory /d/d1: Permission denied"
        ),
    ])
    func aCopysErrorSaysWhatToDoAboutTooManyOpenFiles(error: TransferError, expected: String) {
        #expect(error.description == expected)
    }

    /// The walk of a tree says the same, for the tree and for an entry of it it could not read.
    @Test func theWalksErrorsSayWhatToDoAboutTooManyOpenFiles() {
        let entry = SourceTree.Unreadable(components: ["d1", "d2"], path: "/s/d1/d2", reason: .tooManyOpenFiles)
        #expect(
            [
                SourceTreeError.unreadable(path: "/s/d1", reason: .tooManyOpenFiles).description, entry.description,
                entry.detail,
            ]
                == [
                    "cannot read /s/d1: Too many open files \(Self.hint)",
                    "cannot read /s/d1/d2: Too many open files \(Self.hint)",
                    "cannot read it: Too many open files \(Self.hint)",
                ])
    }
}
