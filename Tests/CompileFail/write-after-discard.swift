// expected-diagnostic: error: 'staged' used after consume
// After discard the partial is gone, and so is the value that could write to it.
import FileTransfer

func writeAfterDiscard() throws {
    var staged = try StagedFile(creating: "a", in: "/tmp")
    staged.discard()
    try staged.write(contentsOf: [1])
}
