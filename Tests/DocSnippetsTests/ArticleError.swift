/// A problem with an article or a snippet file, with a message naming where it is.
struct ArticleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
