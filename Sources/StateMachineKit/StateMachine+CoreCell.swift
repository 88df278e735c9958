import Support

extension StateMachine {
    /// The machine's core behind its lock, in memory of its own.
    ///
    /// A machine's `deinit` runs unspecialised, whatever its types: a core stored in the machine itself was
    /// destroyed there, every generic type it holds looked up in the runtime's cache of generic types one by one
    /// (about 4,700 instructions a machine, two machines a file of a tree copy). Held at an address, the core is
    /// destroyed by the machine's ``StateMachine/destroyCore``, made by its inlinable initialiser in code specialised
    /// for the machine's types, and the `deinit` itself destroys only a pointer.
    @usableFromInline
    struct CoreCell: @unchecked Sendable {
        /// The locked core; initialised by ``init(_:)``, deinitialised and freed by the machine's
        /// ``StateMachine/destroyCore`` in its `deinit`, after which nothing reaches it.
        @usableFromInline let address: UnsafeMutablePointer<Locked<Core>>

        @inlinable
        init(_ core: consuming sending Core) {
            address = .allocate(capacity: 1)
            address.initialize(to: Locked(core))
        }

        /// Runs `body` with exclusive access to the core (``Locked/withLock(_:)``).
        @inlinable @inline(__always)
        func withLock<Result: ~Copyable, Failure: Error>(
            _ body: (inout sending Core) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            try address.pointee.withLock(body)
        }

        /// Runs `body` under the lock if no one holds it (``Locked/withLockIfAvailable(_:)``); nil at once while
        /// someone does.
        @inlinable @inline(__always)
        func withLockIfAvailable<Result: ~Copyable, Failure: Error>(
            _ body: (inout sending Core) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result? {
            try address.pointee.withLockIfAvailable(body)
        }
    }
}
