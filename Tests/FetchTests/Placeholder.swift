import Testing

@Suite struct PlaceholderFetchTests { @Test func builds() {} }
