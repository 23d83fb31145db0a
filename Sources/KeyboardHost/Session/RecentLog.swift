import DequeModule

/// The latest entries of something an extension reports (its errors, its events), at most
/// ``capacity`` of them, with a count of all there were: an extension that reports a million errors
/// costs the host a thousand.
public struct RecentLog<Entry: Sendable>: Sendable, RandomAccessCollection {
    public let capacity: Int
    /// How many entries there were in all, the dropped ones too.
    public private(set) var total = 0
    private var entries = Deque<Entry>()

    public init(capacity: Int = 1000) {
        self.capacity = capacity
    }

    public mutating func append(_ entry: Entry) {
        total += 1
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst() }
    }

    /// Entries dropped to keep within ``capacity``, oldest first.
    public var dropped: Int { total - entries.count }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }
    public subscript(position: Int) -> Entry { entries[position] }
}
