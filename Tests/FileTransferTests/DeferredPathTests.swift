import Testing

@testable import FileTransfer

@Suite struct DeferredPathTests {
    /// A path kept in two parts reads as the directory, a slash and the name, whatever bytes they hold (a name
    /// that is not UTF-8 is held escaped, ``FileName``); a path given whole reads as given, and a directory's
    /// `path(of:)` is the same join.
    @Test(arguments: [
        ("/d", "a.bin", "/d/a.bin"),
        ("/tmp/x y", "été 📷.jpg", "/tmp/x y/été 📷.jpg"),
        ("/", "f", "//f"),
        ("rel/dir", ".statetui-partial-0123", "rel/dir/.statetui-partial-0123"),
    ])
    func readsAsItsDirectoryAndName(directory: String, name: String, expected: String) {
        #expect(
            [
                DeferredPath(directory: directory, name: name).string, DeferredPath(expected).string,
                DeferredPath.joining(directory, name),
            ] == [expected, expected, expected])
    }
}
