/// The work the Graph screen asks for; ``GraphEffectRunner`` performs it.
package enum GraphEffect: Hashable, Sendable {
    /// Write `text` to the file `name` in the runner's directory.
    case writeFile(name: String, text: String)
}
