import FuzzSupport

/// libFuzzer's entry: one input, read as `index` reads a GeoJSON file (see `CatalogHarness`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    CatalogHarness.run(UnsafeRawBufferPointer(start: start, count: count), format: .geoJSON)
    return 0
}
