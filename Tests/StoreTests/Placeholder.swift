import Testing

@Suite struct PlaceholderStoreTests { @Test func builds() {} }
