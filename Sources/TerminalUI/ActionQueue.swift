import Support

/// The store's one inbox: the input source's events, and actions from effects and subscriptions, from any
/// thread, in order. A subscription
/// that only cares about the newest value keeps one slot, replaced while it waits, so a flood of changes
/// costs one action per frame and flat memory. Only the first action after a drain wakes the run loop.
final class ActionQueue<Action: Sendable>: Sendable {
    private struct Inbox {
        var entries: [Action] = []
        var slotPositions: [Int: Int] = [:]
        var wakeup: Wakeup?
        var wakePending = false
    }

    private let inbox = Locked(Inbox())

    /// Appends an action; `wakes`: wakes the run loop (false when the run loop itself appends).
    func append(_ action: Action, wakes: Bool = true) {
        let wakeup = inbox.withLock { inbox -> Wakeup? in
            inbox.entries.append(action)
            return wakes ? Self.claimWake(&inbox) : nil
        }
        wakeup?.wake()
    }

    /// Stores `action` as the newest of `slot`, replacing an older one still waiting.
    func replaceLatest(slot: Int, with action: Action) {
        let wakeup = inbox.withLock { inbox -> Wakeup? in
            if let position = inbox.slotPositions[slot] {
                inbox.entries[position] = action
                return nil
            }
            inbox.slotPositions[slot] = inbox.entries.count
            inbox.entries.append(action)
            return Self.claimWake(&inbox)
        }
        wakeup?.wake()
    }

    /// How many actions the inbox has room for without allocating, and how many newest-only slots.
    var reserved: (actions: Int, slots: Int) {
        inbox.withLock { ($0.entries.capacity, $0.slotPositions.capacity) }
    }

    /// Whether no action is waiting.
    var isEmpty: Bool { inbox.withLock { $0.entries.isEmpty } }

    /// Wakes the run loop without an action (an effect ended: a driver waiting for quiet looks again).
    func wake() {
        inbox.withLock { $0.wakeup }?.wake()
    }

    /// Takes every waiting action, oldest first.
    ///
    /// The inbox is left with no storage: one kept "for the next time" would have the capacity of the largest
    /// burst ever drained, for good (the taken array still holds the old one, so keeping capacity allocates
    /// another as large), and a copy dashboard's completions come in bursts of thousands. The next action
    /// allocates a small array again.
    func drain() -> [Action] {
        inbox.withLock { inbox in
            let taken = inbox.entries
            inbox.entries = []
            inbox.slotPositions = [:]
            inbox.wakePending = false
            return taken
        }
    }

    /// Connects the run loop's wake-up (nil disconnects it); wakes it at once when actions are waiting.
    func attach(_ wakeup: Wakeup?) {
        let waiting = inbox.withLock { inbox -> Bool in
            inbox.wakeup = wakeup
            inbox.wakePending = false
            return !inbox.entries.isEmpty
        }
        if waiting { wakeup?.wake() }
    }

    private static func claimWake(_ inbox: inout Inbox) -> Wakeup? {
        guard !inbox.wakePending, let wakeup = inbox.wakeup else { return nil }
        inbox.wakePending = true
        return wakeup
    }
}
