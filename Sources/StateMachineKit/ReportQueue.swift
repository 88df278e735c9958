import Synchronization

extension StateMachine {
    /// The reports a machine noted under its lock and not yet handed to the caller that delivers them, and
    /// the senders waiting for theirs: the decisions of report delivery, with no lock and no thread.
    ///
    /// It lives in the machine's ``Live`` data (a stopped machine still delivers what it noted). Callers note
    /// under the lock; the first caller with something noted while nobody delivers becomes the deliverer
    /// (``ReportDelivery/claim()``) and is handed the notes; later callers' notes wait here for it, and
    /// their senders wait, blocked, for it to take them (``handOut(report:effects:)``). The deliverer asks
    /// for more with ``next(first:rest:allowance:)`` until nothing is queued.
    @usableFromInline
    struct ReportQueue: Sendable {
        /// Whether a caller delivers; shared with the machine, whose deliverer steps down through it
        /// without the lock.
        @usableFromInline let delivery: ReportDelivery
        /// Notes of applied events that no deliverer has taken yet, oldest first.
        @usableFromInline var notes: [Note] = []
        /// How many notes were ever queued, and how many deliverers ever took: a waiting sender's reports
        /// are taken once ``taken`` reaches its ticket.
        @usableFromInline var queued = 0
        @usableFromInline var taken = 0
        /// ``queued`` when a caller last settled: what tells a caller whether it noted anything.
        @usableFromInline var settled = 0
        /// The senders waiting for their notes to be taken, oldest (lowest ticket) first.
        @usableFromInline var waiters: [ReportWaiter] = []
        /// The emptied buffer the last deliverer of several notes gave back, kept so that notes cost no
        /// allocation.
        @usableFromInline var spare: [Note] = []
        /// The box of a report that no sink kept, for the next record's text; shared with the machine, whose
        /// deliverer puts it back without the lock.
        @usableFromInline let texts: Spare<RecordText>

        @inlinable
        init(delivery: ReportDelivery, texts: Spare<RecordText>) {
            self.delivery = delivery
            self.texts = texts
        }

        /// The note of a recorded event, its values moved into the box of an earlier report that no sink kept
        /// when there is one, so that a traced machine allocates no box per report and destroys none. Filling
        /// the box destroys what it held, under the lock: the deliverer emptied it, unless that runs no code
        /// (``RecordNote/destroysFreely``).
        @inlinable
        func recordNote(_ record: consuming RecordNote) -> Note {
            let outcome = record.outcome
            let source = record.source
            guard let text = texts.take() else { return .record(RecordText(record), outcome: outcome, source: source) }
            text.fill(with: record)
            return .record(text, outcome: outcome, source: source)
        }

        /// How many reports of other senders a deliverer delivers, after its own, before it hands the
        /// delivery to a waiting sender: what bounds the time one `send` spends in sinks.
        @inlinable static var handOverAfter: Int { 64 }

        /// Queues `note`, for this caller to deliver (when nobody is delivering) or for the caller that is.
        @inlinable
        mutating func note(_ note: consuming Note) {
            notes.append(note)
            queued += 1
        }

        /// Hands what this caller noted since it last settled, if anything, to whoever delivers: to this
        /// caller when nobody does (a single note in `report`, several in the effects); else they stay
        /// queued, and unless this caller is inside a sink it is made to wait for the deliverer.
        @inlinable
        mutating func settle(report: inout Note?, effects: inout Effects?) {
            // Only a caller that noted something: a caller with no report of its own has nothing to wait for.
            guard queued != settled else { return }
            settled = queued
            if delivery.claim() {
                if notes.count == 1 {
                    report = notes.removeLast()
                    taken += 1
                } else {
                    var rest: [Note] = []
                    handOut(first: &report, rest: &rest, atMost: notes.count)
                    effects.edit { $0.reports = rest }
                }
            } else if !DeliveringThread.isDelivering {
                // Another thread delivers: this sender waits, blocked, for its turn, so that the deliverer
                // can hand the delivery over instead of draining everyone's reports. A send from inside a
                // sink (of any machine) never waits: the deliverer it would wait for may be waiting for it.
                let waiter = ReportWaiter(ticket: queued)
                waiters.append(waiter)
                effects.edit { $0.waiter = waiter }
            }
        }

        /// Notes `note` and hands it to whoever delivers, for a caller that noted nothing else and has nothing
        /// else to do: to this caller by itself when nobody delivers and nothing waits (no queue, no buffer, no
        /// effects), else as ``note(_:)`` and ``settle(report:effects:)`` do.
        @inlinable
        mutating func hand(_ note: consuming Note) -> SendAction {
            if notes.isEmpty, delivery.claim() {
                queued += 1
                taken += 1
                settled = queued
                return .report(note)
            }
            self.note(note)
            var report: Note?
            var effects: Effects?
            settle(report: &report, effects: &effects)
            return SendAction(consume effects, report: consume report)
        }

        /// Moves the oldest `count` queued notes to the deliverer: a single note by itself, so that the queue
        /// keeps its buffer; all of several in the queue's buffer, which takes the spare in its place.
        @inlinable
        mutating func handOut(first: inout Note?, rest: inout [Note], atMost count: Int) {
            let count = min(count, notes.count)
            taken += count
            if notes.count == 1 {
                first = notes.removeLast()
            } else if count == notes.count {
                swap(&notes, &spare)
                swap(&spare, &rest)
            } else {
                rest.append(contentsOf: notes[..<count])
                notes.removeFirst(count)
            }
        }

        /// What a deliverer does next (``next(first:rest:allowance:)``): the action of its return for more.
        @usableFromInline
        enum NextReports {
            /// It delivers the notes it was given, then asks again; `taken` are the waiting senders whose
            /// notes it took, to resume after the lock.
            case deliver(taken: [ReportWaiter])
            /// Nothing is queued: nobody delivers from now on.
            case done
            /// It has delivered its share; `to`, resumed after the lock, delivers the rest.
            case handOver(to: ReportWaiter)
        }

        /// Gives the deliverer the notes queued while it delivered, taking back the emptied buffer it returns
        /// (kept as the spare): at most `allowance` more, then it hands the delivery to the oldest waiting
        /// sender. With nobody waiting (the rest were sent from sinks) it goes on, as nobody else would.
        @inlinable
        mutating func next(first: inout Note?, rest: inout [Note], allowance: Int) -> NextReports {
            if rest.capacity > 0 {
                swap(&spare, &rest)
                rest = []
            }
            if notes.isEmpty {
                precondition(waiters.isEmpty, "Internal inconsistency: \(waiters.count) senders wait for no note")
                delivery.stepDown()
                return .done
            }
            if allowance <= 0, !waiters.isEmpty {
                delivery.handOver()
                return .handOver(to: waiters.removeFirst())
            }
            delivery.keep()
            handOut(first: &first, rest: &rest, atMost: allowance > 0 ? allowance : notes.count)
            let resumed = waiters.prefix { $0.ticket <= taken }
            guard !resumed.isEmpty else { return .deliver(taken: []) }
            waiters.removeFirst(resumed.count)
            return .deliver(taken: Array(resumed))
        }
    }
}

/// Whether a caller is delivering a machine's reports, in one atomic word beside the machine's lock.
///
/// Callers decide under the lock whether they deliver (``claim()``), and queue their notes for the deliverer
/// when another does; the deliverer, done with its notes, steps down with one compare-and-exchange
/// (``stepDownUnlessQueued()``) instead of taking the lock again to look for more. The word says whether
/// notes were queued for it meanwhile, in which case it takes the lock to fetch them. So a sender whose
/// reports nobody else is delivering takes the lock once per event, as a silent machine does.
@usableFromInline
final class ReportDelivery: Sendable {
    /// Nobody delivers. Only a caller holding the lock changes the word from here.
    @usableFromInline static var idle: UInt8 { 0 }
    /// A caller delivers, and no note has been queued for it since it last looked.
    @usableFromInline static var delivering: UInt8 { 1 }
    /// A caller delivers, and notes wait in the queue for it.
    @usableFromInline static var queued: UInt8 { 2 }

    @usableFromInline let word = Atomic<UInt8>(0)

    @inlinable init() {}

    /// Under the lock, with notes queued: `true` when this caller is to deliver them (nobody was, or the
    /// deliverer has just stepped down); `false` when the active deliverer will, which it is told.
    @inlinable
    func claim() -> Bool {
        if word.load(ordering: .acquiring) == Self.idle {
            word.store(Self.delivering, ordering: .relaxed)
            return true
        }
        let (exchanged, found) = word.compareExchange(
            expected: Self.delivering, desired: Self.queued, ordering: .acquiringAndReleasing)
        if exchanged || found == Self.queued { return false }
        // The deliverer stepped down between the load and the exchange: its reports are all delivered.
        word.store(Self.delivering, ordering: .relaxed)
        return true
    }

    /// Outside the lock, by the deliverer with nothing left in hand: steps down unless notes were queued
    /// for it, which it must then fetch under the lock (``StateMachine/ReportQueue/next(first:rest:allowance:)``).
    @inlinable
    func stepDownUnlessQueued() -> Bool {
        word.compareExchange(expected: Self.delivering, desired: Self.idle, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// Under the lock, by the deliverer finding nothing queued: nobody delivers from now on.
    @inlinable
    func stepDown() { word.store(Self.idle, ordering: .releasing) }

    /// Under the lock, by the deliverer taking the queued notes: it goes on delivering.
    @inlinable
    func keep() { word.store(Self.delivering, ordering: .relaxed) }

    /// Under the lock, by the deliverer handing the delivery to a waiting sender, which will fetch the
    /// queued notes.
    @inlinable
    func handOver() { word.store(Self.queued, ordering: .releasing) }

    /// Whether a caller is delivering.
    @inlinable
    var isActive: Bool { word.load(ordering: .acquiring) != Self.idle }
}

/// One object kept for reuse between callers, in one atomic word: taking it leaves the word empty, so
/// whoever took it holds the only reference the word gave out, whatever thread puts or takes next.
///
/// The word is an address (0 for none), so that `deinit`, which runs unspecialised (a machine's box for its
/// record's text is a `Spare` of a type generic over the machine's), asks the runtime for no type: an
/// `Atomic<Unmanaged<Object>?>` there was looked up for every machine let go (1.3% of a tree copy's CPU time).
@usableFromInline
final class Spare<Object: AnyObject & Sendable>: Sendable {
    @usableFromInline let slot = Atomic<UInt>(0)

    @inlinable init() {}

    /// The kept object, if any; the word is empty afterwards.
    @inlinable
    func take() -> Object? {
        UnsafeMutableRawPointer(bitPattern: slot.exchange(0, ordering: .acquiring)).map {
            Unmanaged<Object>.fromOpaque($0).takeRetainedValue()
        }
    }

    /// Keeps `object` for the next ``take()``, in place of whatever was kept.
    @inlinable
    func put(_ object: Object) {
        let address = UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
        if let kept = UnsafeMutableRawPointer(bitPattern: slot.exchange(address, ordering: .releasing)) {
            Unmanaged<Object>.fromOpaque(kept).release()
        }
    }

    deinit {
        // Released as any object: the kept one's own type needs no look-up.
        if let kept = UnsafeMutableRawPointer(bitPattern: slot.exchange(0, ordering: .acquiring)) {
            Unmanaged<AnyObject>.fromOpaque(kept).release()
        }
    }
}

extension StateMachine.Core {
    /// The deliverer's return for more reports (``StateMachine/ReportQueue/next(first:rest:allowance:)``),
    /// in whichever phase the machine is: a stopped machine still delivers what it noted.
    @inlinable
    mutating func nextReports(
        first: inout StateMachine.Note?, rest: inout [StateMachine.Note], allowance: Int
    ) -> StateMachine.ReportQueue.NextReports {
        live.reports.next(first: &first, rest: &rest, allowance: allowance)
    }
}
