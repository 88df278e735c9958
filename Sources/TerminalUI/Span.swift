/// A run of text in one style: the piece lines are made of.
public struct Span: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The text (one line; control characters take no cell).
    public var text: String {
        didSet { width = DisplayWidth.of(text) }
    }
    /// Its style.
    public var style: Style

    /// Creates a span.
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
        self.width = DisplayWidth.of(text)
    }

    /// A plain span from a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Columns the text takes, measured once when the text is set (lines and tables read it every frame).
    public private(set) var width: Int
}
