import Testing

@Suite struct PlaceholderBundlesTests { @Test func builds() {} }
