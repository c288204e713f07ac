/// The active fault rules, consulted in order for every `query` and `count` request.
/// The first rule that fires decides; the rules after it do not see that request.
struct FaultBook: Sendable {
    private(set) var rules: [FaultRule] = []

    /// Adds rules parsed from `specs`; none are added when one is bad.
    mutating func add(_ specs: [String]) throws(FaultSpecError) {
        var parsed: [FaultRule] = []
        for spec in specs { parsed.append(try FaultRule(spec: spec)) }
        rules += parsed
    }

    mutating func clear() { rules = [] }

    /// The fault to inject into this request to `endpoint`, if any.
    mutating func decide(for endpoint: String) -> FaultKind? {
        for index in rules.indices where rules[index].fires(on: endpoint) {
            return rules[index].kind
        }
        return nil
    }
}
