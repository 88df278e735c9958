import Testing

@testable import MachineDrivers

/// The gate a transfer's operations pass one at a time (``SerialGate``): a free gate admits at once, and
/// operations arriving while one runs wait and run in the order they arrived, never two at once.
@Suite(.timeLimit(.minutes(1))) struct SerialGateTests {
    @Test func operationsRunOneAtATimeInTheOrderTheyArrived() async {
        let gate = SerialGate()
        let log = Log()
        let (held, holder) = AsyncStream.makeStream(of: Void.self)
        let (released, releaser) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            await gate.run {
                await log.add("1 start")
                holder.yield()
                for await _ in released { break }
                await log.add("1 end")
            }
        }
        for await _ in held { break }
        var later: [Task<Void, Never>] = []
        for number in 2...3 {
            later.append(
                Task {
                    await gate.run {
                        await log.add("\(number) start")
                        await Task.yield()
                        await log.add("\(number) end")
                    }
                })
            while gate.waitingCount < number - 1 { await Task.yield() }
        }
        releaser.yield()
        await first.value
        for task in later { await task.value }
        #expect(
            await log.entries == ["1 start", "1 end", "2 start", "2 end", "3 start", "3 end"])
        // Free again: the next operation is admitted at once.
        #expect(await gate.run { 42 } == 42)
        #expect(gate.waitingCount == 0)
    }
}

private actor Log {
    private(set) var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}
