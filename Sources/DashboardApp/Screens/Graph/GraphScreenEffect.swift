/// The work the Graph screen asks for; ``GraphRuntime`` performs it.
package enum GraphScreenEffect: Hashable, Sendable {
    /// Write `text` to the file `name` in the runtime's directory.
    case writeFile(name: String, text: String)
}
