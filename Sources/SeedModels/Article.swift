/// The indefinite article English puts before a word, for messages that name a thing by a name they are given
/// (`an upload event`, `a transfer event`, `a load action`).
package enum Article {
    /// Words that start with a vowel letter but a consonant sound (`a user`, `a unit`, `a one-line`).
    private static let consonantSounds = ["uni", "use", "usu", "uti", "eu", "one", "once"]
    /// Words that start with a silent `h` (`an hour`).
    private static let silentH = ["hour", "honest", "honor", "honour", "heir"]

    /// `an upload event`, `a transfer event`: `phrase` after its indefinite article.
    package static func indefinite(_ phrase: String) -> String {
        let word = phrase.lowercased()
        let vowelSound =
            word.first.map { "aeiou".contains($0) } == true && !consonantSounds.contains { word.hasPrefix($0) }
            || silentH.contains { word.hasPrefix($0) }
        return (vowelSound ? "an " : "a ") + phrase
    }
}
