extension StateMachine {
    /// Explores the states reachable from `initial` with `events`, through this machine's own
    /// transition function, on every core for a large search
    /// (``StateGraph/explore(from:events:maximumStates:workers:transition:)`` with
    /// ``ExplorationWorkers/allCores``).
    ///
    /// For a tool that is handed a running machine, such as an inspector, and so has no other way to the
    /// transition function. The machine itself is not touched: no event is sent, no lock is taken.
    public func explore(from initial: State, events: [Event], maximumStates: Int = 10_000) -> StateGraph<State, Event> {
        StateGraph.explore(
            from: initial, events: events, maximumStates: maximumStates, workers: .allCores, transition: transition)
    }
}
