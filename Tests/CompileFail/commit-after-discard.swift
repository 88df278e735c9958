// expected-diagnostic: error: 'staged' consumed more than once
// A discarded file cannot be committed.
import FileTransfer

func commitAfterDiscard(digest: SHA256Digest) throws {
    let staged = try StagedFile(creating: "a", in: "/tmp")
    staged.discard()
    _ = try staged.commit(expectedSize: 0, expectedDigest: digest)
}
