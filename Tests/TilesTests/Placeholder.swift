import Testing

@Suite struct PlaceholderTilesTests { @Test func builds() {} }
