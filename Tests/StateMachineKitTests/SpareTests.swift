import Synchronization
import Testing

@testable import StateMachineKit

/// A ``Spare`` keeps one object in one atomic word: taking it empties the word, putting one releases the one it
/// replaces, and letting the spare go releases the one it kept. The word holds an address, not a typed reference
/// (its `deinit` runs unspecialised and must ask the runtime for no type), so each of these is counted by hand.
@Suite struct SpareTests {
    final class Kept: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    /// Whether each object of `numbers` is still alive after `body` ran with weak references to them.
    private static func alive(_ numbers: [Int], after body: ([Kept]) -> Void) -> [Bool] {
        var objects = numbers.map(Kept.init)
        let watched = objects.map { WeakBox($0) }
        body(objects)
        objects.removeAll()
        return watched.map { $0.object != nil }
    }

    @Test func takingEmptiesTheWordAndGivesTheKeptObjectOnce() {
        let spare = Spare<Kept>()
        #expect(spare.take() == nil)
        spare.put(Kept(1))
        let taken = [spare.take()?.number, spare.take()?.number]
        #expect(taken == [1, nil])
    }

    @Test func puttingReleasesTheObjectReplacedAndTheSpareReleasesTheOneKept() {
        let replaced = Self.alive([1, 2]) { objects in
            let spare = Spare<Kept>()
            spare.put(objects[0])
            spare.put(objects[1])
            #expect(spare.take()?.number == 2)
        }
        #expect(replaced == [false, false])
        var spare: Spare<Kept>? = Spare<Kept>()
        let watched = WeakBox(Kept(3)) { spare?.put($0) }
        let keptWhileTheSpareLives = watched.object != nil
        spare = nil
        #expect([keptWhileTheSpareLives, watched.object != nil] == [true, false])
    }
}

/// A weak reference to a kept object, handed to `body` first (the only strong reference left is what `body` kept).
private final class WeakBox {
    weak var object: SpareTests.Kept?
    init(_ object: SpareTests.Kept, _ body: (SpareTests.Kept) -> Void = { _ in }) {
        self.object = object
        body(object)
    }
}
