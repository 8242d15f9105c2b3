import Dispatch
import Synchronization

/// Runs work over a list on several threads and hands the results on in the list's order, a window at a
/// time: output and reports come out the same whatever the number of jobs, and memory holds one window of
/// results, not the library's.
package enum OrderedParallel {
    /// `work` on each item, `jobs` at once (at most the machine's cores: libdispatch's limit), `consume`
    /// on each result in item order. Once `stop` says so, no item is started; those started are finished
    /// and consumed.
    package static func run<Item: Sendable, Output: Sendable>(
        _ items: [Item], jobs: Int, stop: @Sendable () -> Bool = { false }, work: @Sendable (Item) -> Output,
        consume: (Output) throws -> Void
    ) rethrows {
        guard jobs > 1, items.count > 1 else {
            for item in items {
                if stop() { return }
                try consume(work(item))
            }
            return
        }
        let window = jobs * 8
        var start = 0
        while start < items.count, !stop() {
            let slice = Array(items[start..<min(items.count, start + window)])
            let results = Mutex<[Output?]>(Array(repeating: nil, count: slice.count))
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: min(jobs, slice.count)) { _ in
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < slice.count, !stop() else { return }
                    let output = work(slice[index])
                    results.withLock { $0[index] = output }
                }
            }
            for output in results.withLock({ $0 }) {
                if let output { try consume(output) }
            }
            start += window
        }
    }
}
