// expected-diagnostic: error: 'staged' used after consume
// Reading a committed file's state through the old value is a use after consume.
import FileTransfer

func offsetAfterCommit(digest: SHA256Digest) throws -> Int64 {
    let staged = try StagedFile(creating: "a", in: "/tmp")
    _ = try staged.commit(expectedSize: 0, expectedDigest: digest)
    return staged.offset
}
