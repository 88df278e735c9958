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
}

extension TransferList {
    /// No size before a driver tells it.
    package func size(at row: Int) -> Int64? { nil }
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
