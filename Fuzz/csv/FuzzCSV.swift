import FuzzSupport

/// libFuzzer's entry: one input, read as `index` reads a ComCat CSV file (see `CatalogHarness`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    CatalogHarness.run(UnsafeRawBufferPointer(start: start, count: count), format: .csv)
    return 0
}
