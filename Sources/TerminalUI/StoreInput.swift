/// What enters a ``Store``'s one inbox, in the order it arrived: an event the terminal's input source decoded
/// (a key, a mouse report, a resize), mapped by the app's keymap when its turn comes (so against the state the
/// inputs before it left), or an action sent by an effect or a subscription.
enum StoreInput<Action: Sendable>: Sendable {
    /// An event from the input source.
    case event(Key)
    /// An action from an effect or a subscription.
    case action(Action)
}
