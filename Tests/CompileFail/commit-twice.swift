// expected-diagnostic: error: 'staged' consumed more than once
// A staged file is committed once: the first commit consumes it.
import FileTransfer

func commitTwice(digest: SHA256Digest) throws {
    var staged = try StagedFile(creating: "a", in: "/tmp")
    try staged.write(contentsOf: [1])
    _ = try staged.commit(expectedSize: 1, expectedDigest: digest)
    _ = try staged.commit(expectedSize: 1, expectedDigest: digest)
}
