/// The transfers a Transfers screen lists, in row order: each row's name at once, and its driver, which a long
/// list (``CopyFiles``) makes only when the row is first used, so a row never started costs its name and
/// little more.
package protocol TransferList: Sendable {
    /// How many rows there are.
    var count: Int { get }
    /// The name row `row` shows.
    func name(at row: Int) -> String
    /// Row `row`'s driver, nil while it was not made.
    func driver(at row: Int) -> (any TransferDriver)?
    /// Row `row`'s driver, made now when it was not (`isNew`).
    func makeDriver(at row: Int) -> (driver: any TransferDriver, isNew: Bool)
    /// The size of row `row`'s file as the list knows it before its driver is made; nil when it does not.
    func size(at row: Int) -> Int64?
    /// Row `row` once its list let its completed transfer go (``settle(_:at:)``); nil otherwise. Its driver is
    /// then nil, until ``makeDriver(at:)`` makes it again, on a machine restored where it ended.
    func settled(at row: Int) -> SettledTransfer?
    /// Lets row `row`'s transfer go when its machine completed and its newest record is still `sequence`,
    /// keeping only ``SettledTransfer``; returns whether it did. The caller sends the row's events through the
    /// same lock, so none reaches a transfer let go.
    func settle(_ row: Int, at sequence: Int) -> Bool
}

extension TransferList {
    /// No size before a driver tells it.
    package func size(at row: Int) -> Int64? { nil }
    /// A list that keeps its drivers has no settled rows.
    package func settled(at row: Int) -> SettledTransfer? { nil }
    /// A list that keeps its drivers lets none go.
    package func settle(_ row: Int, at sequence: Int) -> Bool { false }
}

/// Drivers all made up front (the demo's simulated transfers, tests): a list that makes nothing.
package struct MadeTransfers: TransferList {
    /// The drivers, in row order.
    package let drivers: [any TransferDriver]

    /// The list of `drivers`.
    package init(_ drivers: [any TransferDriver]) {
        self.drivers = drivers
    }

    package var count: Int { drivers.count }

    package func name(at row: Int) -> String { drivers[row].name }

    package func driver(at row: Int) -> (any TransferDriver)? { drivers[row] }

    package func makeDriver(at row: Int) -> (driver: any TransferDriver, isNew: Bool) { (drivers[row], false) }
}
