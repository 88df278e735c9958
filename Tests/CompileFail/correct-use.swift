// expected-diagnostic: none
// The control case: the same calls in a legal order compile, so the failures above are about
// ownership and not about a missing module or a misspelt API.
import FileTransfer

func correctUse(digest: SHA256Digest, keep: Bool) throws -> CommittedFile? {
    var staged = try StagedFile(creating: "a", in: "/tmp")
    try staged.write(contentsOf: [1])
    try staged.sync()
    if keep {
        return try staged.commit(expectedSize: 1, expectedDigest: digest)
    }
    staged.discard()
    return nil
}
