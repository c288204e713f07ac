import Testing

@Suite struct PlaceholderOperationsTests { @Test func builds() {} }
