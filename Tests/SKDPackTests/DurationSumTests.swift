import SKDTestSupport
import Testing

@testable import SKDValidation

/// A playlist's duration summed by runs of segments and one segment at a time must agree to the digit
/// (`HLS-start-offset` quotes it), whatever the order: durations are summed in whole nanoseconds.
@Suite("validate: a sum of durations")
struct DurationSumTests {
    @Test("the same sum in any order and any grouping, shown as the decimal it is", arguments: 0..<20)
    func orderFree(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let durations = (0..<200).map { _ in
            Double(random.next() % 12_000_000) / 1_000_000 + [0, 0.000000001, 1e-7][Int(random.next() % 3)]
        }
        var one = DurationSum()
        for duration in durations { one.add(duration) }
        var grouped = DurationSum()
        var start = 0
        while start < durations.count {
            let end = min(durations.count, start + 1 + Int(random.next() % 30))
            var run = DurationSum()
            for duration in durations[start..<end].reversed() { run.add(duration) }
            grouped.add(run)
            start = end
        }
        #expect(one == grouped)
        #expect(!one.text.contains("e") && one.text.split(separator: ".").last!.count <= 9, "\(one.text)")
    }

    @Test("decimals as written, and a sum past 292 years held there")
    func text() {
        var sum = DurationSum()
        for duration in [6.006, 6.006, 419.804000001] { sum.add(duration) }
        #expect(sum.text == "431.816000001")
        var whole = DurationSum()
        whole.add(10)
        #expect(whole.text == "10")
        var huge = DurationSum()
        huge.add(1e300)
        huge.add(5)
        #expect(huge.nanoseconds == .max)
    }
}
