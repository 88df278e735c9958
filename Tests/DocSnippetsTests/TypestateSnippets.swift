// The code of the "Typestate versus a runtime machine" article; see GettingStartedSnippets.swift for the markers.

import Testing

// snippet: transaction-typestate
/// A transaction that must end exactly once: committed or rolled back.
struct Transaction: ~Copyable {
    private var statements: [String] = []

    mutating func execute(_ statement: String) {
        statements.append(statement)
    }

    /// Ends the transaction; the value is consumed, so nothing can use it afterwards.
    consuming func commit() -> [String] {
        statements
    }

    /// Ends the transaction without applying anything.
    consuming func rollBack() {}
}
// end snippet

@Suite struct TypestateSnippets {
    @Test func aTransactionEndsOnce() {
        // snippet: transaction-use
        var transaction = Transaction()
        transaction.execute("INSERT INTO files VALUES ('a')")
        let applied = transaction.commit()
        // transaction.commit()  // error: 'transaction' used after consume
        // transaction.execute("…")  // error: 'transaction' used after consume
        // end snippet
        #expect(applied == ["INSERT INTO files VALUES ('a')"])
    }
}
