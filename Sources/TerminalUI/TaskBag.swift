import Support

/// The store's running tasks (effects and subscriptions), cancelled together when the store stops.
final class TaskBag: Sendable {
    private struct Tasks {
        var next = 0
        var running: [Int: Task<Void, Never>] = [:]
        var finishedEarly: Set<Int> = []
        var isCancelled = false
    }

    private let tasks = Locked(Tasks())

    /// Starts `operation` in a task that is forgotten once it finishes; returns the task.
    @discardableResult
    func spawn(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let id = tasks.withLock { tasks in
            tasks.next += 1
            return tasks.next
        }
        let task = Task {
            await operation()
            self.finished(id)
        }
        let cancelNow = tasks.withLock { tasks -> Bool in
            if tasks.finishedEarly.remove(id) != nil { return false }
            if tasks.isCancelled { return true }
            tasks.running[id] = task
            return false
        }
        if cancelNow { task.cancel() }
        return task
    }

    /// How many tasks are still running.
    var count: Int { tasks.withLock { $0.running.count } }

    /// Cancels every running task and any started later.
    func cancelAll() {
        let running = tasks.withLock { tasks -> [Task<Void, Never>] in
            tasks.isCancelled = true
            let running = Array(tasks.running.values)
            tasks.running.removeAll()
            return running
        }
        for task in running { task.cancel() }
    }

    private func finished(_ id: Int) {
        tasks.withLock { tasks in
            if tasks.running.removeValue(forKey: id) == nil { tasks.finishedEarly.insert(id) }
        }
    }
}
