import QuakeCommon

/// The binary form of an `EventTable`, for the export's event cache: every column as it is
/// held in memory, so writing and reading it costs little more than copying the bytes.
extension EventTable {
    /// Writes the table (its attributes are not written: the reader names them).
    public func write(to out: inout BinaryWriter) throws {
        try out.put(UInt64(count))
        try out.put(longitude)
        try out.put(latitude)
        try out.put(magnitude)
        try out.put(time)
        try out.put(fingerprint)
        try ids.write(to: &out)
        for column in texts { try column.write(to: &out) }
        for column in categories { try column.write(to: &out) }
        for column in reals { try out.put(column) }
        for column in integers { try column.write(to: &out) }
    }

    /// Reads a table of events carrying `attributes` written by `write(to:)`; throws when the
    /// file does not hold one (its columns disagree in length).
    public init(reading input: BinaryReader, attributes: [EventAttribute]) throws {
        self.init(attributes: attributes)
        let count = try input.get(UInt64.self)
        func checked<T>(_ column: [T]) throws -> [T] {
            guard column.count == Int(count) else { throw BinaryFileError("a column holds \(column.count) values, not \(count)") }
            return column
        }
        longitude = try checked(input.get([Double].self))
        latitude = try checked(input.get([Double].self))
        magnitude = try checked(input.get([Double].self))
        time = try checked(input.get([Int64].self))
        fingerprint = try checked(input.get([UInt64].self))
        ids = try TextColumn(reading: input, count: Int(count))
        for i in texts.indices { texts[i] = try TextColumn(reading: input, count: Int(count)) }
        for i in categories.indices { categories[i] = try CategoryColumn(reading: input, count: Int(count)) }
        for i in reals.indices { reals[i] = try checked(input.get([Double].self)) }
        for i in integers.indices { integers[i] = try IntegerColumn(reading: input, count: Int(count)) }
    }
}

extension TextColumn {
    func write(to out: inout BinaryWriter) throws {
        try out.put(pool)
        try out.put(ends)
    }

    init(reading input: BinaryReader, count: Int) throws {
        self.init()
        pool = try input.get([UInt8].self)
        ends = try input.get([UInt32].self)
        guard ends.count == count, Int(ends.last.map { $0 & 0x7FFF_FFFF } ?? 0) == pool.count else {
            throw BinaryFileError("a text column does not match its pool")
        }
    }
}

extension CategoryColumn {
    func write(to out: inout BinaryWriter) throws {
        try out.put(UInt8(isWide ? 1 : 0))
        if isWide { try out.put(wide) } else { try out.put(narrow) }
        try out.put(UInt64(values.count))
        for value in values { try out.put(value) }
    }

    init(reading input: BinaryReader, count: Int) throws {
        let isWide = try input.get(UInt8.self)
        guard isWide <= 1 else { throw BinaryFileError("a category column is damaged") }
        let wide = isWide == 1 ? try input.get([UInt32].self) : nil
        let narrow = isWide == 1 ? [] : try input.get([UInt16].self)
        let valueCount = try input.get(UInt64.self)
        guard (wide?.count ?? narrow.count) == count, valueCount <= UInt64(count) else { throw BinaryFileError("a category column is damaged") }
        var values: [[UInt8]] = []
        for _ in 0..<valueCount { values.append(try input.get([UInt8].self)) }
        guard (wide?.allSatisfy({ UInt64($0) <= valueCount }) ?? narrow.allSatisfy({ UInt64($0) <= valueCount })) else {
            throw BinaryFileError("a category column names values it does not hold")
        }
        self.init(narrow: narrow, wide: wide, values: values)
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

    init(reading input: BinaryReader, count: Int) throws {
        self.init()
        if try input.get(UInt8.self) == 1 {
            wide = try input.get([Int64].self)
        } else {
            narrow = try input.get([Int32].self)
        }
        guard (wide?.count ?? narrow.count) == count else { throw BinaryFileError("an integer column holds the wrong number of values") }
    }
}
