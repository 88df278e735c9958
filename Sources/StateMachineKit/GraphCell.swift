/// The encoding of one (state, event) cell of a graph in 32 bits: a target and its kind of move, or a
/// verdict that names no target.
@usableFromInline
enum GraphCell {
    /// Kinds of move of a cell that names a target, in its two low bits.
    @inlinable static var toKind: Int32 { 0 }
    @inlinable static var updateKind: Int32 { 1 }
    @inlinable static var postponeKind: Int32 { 2 }
    /// Cells that name no target.
    @inlinable static var stay: Int32 { -1 }
    @inlinable static var ignore: Int32 { -2 }
    @inlinable static var invalid: Int32 { -3 }
    /// A `.postpone` that names no node: explored without a queue, or past the postpone limit.
    @inlinable static var postponedNowhere: Int32 { -4 }

    /// The most states a graph holds: positions keep two bits for the kind of move.
    @inlinable static var maximumStates: Int { 1 << 29 }

    /// A move of `kind` to the state at `position`.
    @inlinable
    static func target(_ position: Int, kind: Int32) -> Int32 { Int32(truncatingIfNeeded: position) << 2 | kind }

    /// A move of `kind` to a state not admitted because the state limit was reached.
    @inlinable
    static func beyondLimit(kind: Int32) -> Int32 { -5 &- kind }

    /// Whether `cell` is a move beyond the state limit.
    @inlinable
    static func isBeyondLimit(_ cell: Int32) -> Bool { cell <= -5 && cell >= -7 }

    /// While a batch is explored: a move of `kind` to the state pending at batch cell `pending`.
    @inlinable
    static func pending(_ pending: Int, kind: Int32) -> Int32 { -8 &- (Int32(truncatingIfNeeded: pending) << 2 | kind) }

    /// The pending batch cell and kind of move of a cell made by ``pending(_:kind:)``, or nil.
    @inlinable
    static func pending(of cell: Int32) -> (pending: Int, kind: Int32)? {
        guard cell <= -8 else { return nil }
        let code = -8 &- cell
        return (Int(code >> 2), code & 3)
    }

    /// While a batch is expanded: a move of `kind` whose successor is not looked up yet.
    @inlinable
    static func unvisited(kind: Int32) -> Int32 { Int32.min &+ kind }

    /// Whether `cell` is a move made by ``unvisited(kind:)``.
    @inlinable
    static func isUnvisited(_ cell: Int32) -> Bool { cell <= Int32.min &+ 2 }

    /// The kind of move of a cell made by ``unvisited(kind:)``.
    @inlinable
    static func unvisitedKind(_ cell: Int32) -> Int32 { cell &- Int32.min }

    /// The verdict a cell records.
    @inlinable
    static func verdict(_ cell: Int32) -> Verdict {
        switch cell {
        case 0...: kind(cell & 3)
        case stay: .stay
        case ignore: .ignore
        case invalid: .invalid
        case postponedNowhere: .postpone
        default: kind(-5 &- cell)
        }
    }

    /// The verdict of a kind of move.
    @inlinable
    static func kind(_ kind: Int32) -> Verdict {
        switch kind {
        case toKind: .to
        case updateKind: .update
        case postponeKind: .postpone
        default: preconditionFailure("Internal inconsistency: no kind of move \(kind)")
        }
    }

    /// The position a cell moves to, `StateGraph.noTarget` when it names none, or
    /// `StateGraph.beyondLimit` when its target was not admitted.
    @inlinable
    static func target(_ cell: Int32) -> Int32 {
        if cell >= 0 { return cell >> 2 }
        return cell <= -5 ? -2 : -1
    }
}
