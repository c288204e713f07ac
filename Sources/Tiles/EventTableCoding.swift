import QuakeCommon

/// The binary form of an `EventTable`, for the export's event cache: every column as it is
/// held in memory, so writing and reading it costs little more than copying the bytes.
extension EventTable {
    /// Writes the table (its attributes are not written: the reader names them). A table in a
    /// spill file lets go of each column once written.
    public func write(to out: inout BinaryWriter) throws {
        try out.put(UInt64(count))
        func put(_ body: (inout BinaryWriter) throws -> Void) throws {
            try body(&out)
            spill?.releaseResident()
        }
        try put { try $0.put(longitude) }
        try put { try $0.put(latitude) }
        try put { try $0.put(magnitude) }
        try put { try $0.put(time) }
        try put { try $0.put(fingerprint) }
        try put { try ids.write(to: &$0) }
        for column in texts { try put { try column.write(to: &$0) } }
        for column in categories { try put { try column.write(to: &$0) } }
        for column in reals { try put { try $0.put(column) } }
        for column in integers { try put { try column.write(to: &$0) } }
    }

    /// Reads a table of events carrying `attributes` written by `write(to:)`, its columns in
    /// `spill`; throws when the file does not hold one (its columns disagree in length).
    public init(reading input: BinaryReader, attributes: [EventAttribute], spill: SpillFile? = nil) throws {
        self.init(attributes: attributes, spill: spill)
        let count = try input.get(UInt64.self)
        func checked<T>(_ type: T.Type) throws -> SpillableArray<T> {
            let column = try input.get(SpillableArray<T>.self, spill: spill)
            guard column.count == Int(count) else { throw BinaryFileError("a column holds \(column.count) values, not \(count)") }
            return column
        }
        longitude = try checked(Double.self)
        latitude = try checked(Double.self)
        magnitude = try checked(Double.self)
        time = try checked(Int64.self)
        fingerprint = try checked(UInt64.self)
        ids = try TextColumn(reading: input, count: Int(count), spill: spill)
        for i in texts.indices { texts[i] = try TextColumn(reading: input, count: Int(count), spill: spill) }
        for i in categories.indices { categories[i] = try CategoryColumn(reading: input, count: Int(count), spill: spill) }
        for i in reals.indices { reals[i] = try checked(Double.self) }
        for i in integers.indices { integers[i] = try IntegerColumn(reading: input, count: Int(count), spill: spill) }
    }
}

extension TextColumn {
    func write(to out: inout BinaryWriter) throws {
        try out.put(pool)
        try out.put(ends)
    }

    init(reading input: BinaryReader, count: Int, spill: SpillFile?) throws {
        pool = try input.get(SpillableArray<UInt8>.self, spill: spill)
        ends = try input.get(SpillableArray<UInt32>.self, spill: spill)
        guard ends.count == count, Int(ends.last.map { $0 & 0x7FFF_FFFF } ?? 0) == pool.count else {
            throw BinaryFileError("a text column does not match its pool")
        }
    }
}

extension CategoryColumn {
    func write(to out: inout BinaryWriter) throws {
        try out.put(UInt8(isWide ? 1 : 0))
        if isWide { try out.put(wide) } else { try out.put(narrow) }
        try out.put(valuePool)
        try out.put(valueEnds)
    }

    init(reading input: BinaryReader, count: Int, spill: SpillFile?) throws {
        let isWide = try input.get(UInt8.self)
        guard isWide <= 1 else { throw BinaryFileError("a category column is damaged") }
        let wide = isWide == 1 ? try input.get(SpillableArray<UInt32>.self, spill: spill) : nil
        let narrow = isWide == 1 ? SpillableArray(spill: spill) : try input.get(SpillableArray<UInt16>.self, spill: spill)
        let pool = try input.get(SpillableArray<UInt8>.self, spill: spill)
        let ends = try input.get(SpillableArray<UInt32>.self, spill: spill)
        let valueCount = UInt64(ends.count)
        guard (wide?.count ?? narrow.count) == count, ends.count <= count,
              zip(ends, ends.dropFirst()).allSatisfy({ $0 <= $1 }), Int(ends.last ?? 0) == pool.count else {
            throw BinaryFileError("a category column is damaged")
        }
        guard (wide?.allSatisfy({ UInt64($0) <= valueCount }) ?? narrow.allSatisfy({ UInt64($0) <= valueCount })) else {
            throw BinaryFileError("a category column names values it does not hold")
        }
        self.init(narrow: narrow, wide: wide, valuePool: pool, valueEnds: ends)
    }
}

extension IntegerColumn {
    func write(to out: inout BinaryWriter) throws {
        if let wide {
            try out.put(UInt8(1))
            try out.put(wide)
        } else {
            try out.put(UInt8(0))
            try out.put(narrow)
        }
    }

    init(reading input: BinaryReader, count: Int, spill: SpillFile?) throws {
        self.init(spill: spill)
        if try input.get(UInt8.self) == 1 {
            wide = try input.get(SpillableArray<Int64>.self, spill: spill)
        } else {
            narrow = try input.get(SpillableArray<Int32>.self, spill: spill)
        }
        guard (wide?.count ?? narrow.count) == count else { throw BinaryFileError("an integer column holds the wrong number of values") }
    }
}
