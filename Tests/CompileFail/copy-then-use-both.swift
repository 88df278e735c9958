// expected-diagnostic: error: 'staged' consumed more than once
// A staged file cannot be copied: binding it elsewhere moves it.
import FileTransfer

func copyThenUseBoth() throws {
    let staged = try StagedFile(creating: "a", in: "/tmp")
    let other = staged
    other.discard()
    staged.discard()
}
