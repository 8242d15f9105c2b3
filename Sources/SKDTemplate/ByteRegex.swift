import Glibc
import SKDBytes

/// A regular-expression matcher for the patterns of `--match` and `--path-pattern` and the `pattern` of a
/// template variable, run on ASCII text.
///
/// Swift's `Regex` spends microseconds a match, which is most of what a migration of a long key-rotated
/// playlist costs. This compiles the common syntax (literals and escapes, `.`, classes, `\d \w \s`,
/// anchors, capturing, non-capturing and named groups, alternation, greedy and lazy quantifiers) to a
/// small backtracking program with the same leftmost-first semantics as Swift's `Regex`, and matches bytes.
/// Anything else (lookaround, back-references, Unicode properties, flags) makes `compile` return `nil`,
/// and the caller uses Swift's `Regex`; so does a match that takes too many steps, or non-ASCII input.
/// A differential test keeps the two in agreement.
package struct ByteRegex: Sendable {
    /// The named groups in capture order, with their capture index (0 is the whole match). (An array: a
    /// dictionary keyed by Int costs its first use in a process a scan of the runtime's conformances.)
    package let groupNames: [(index: Int, name: String)]
    private let program: [Instruction]
    /// The character classes, 256 entries each, one after another: class `i` accepts byte `b` when
    /// `classes[i * 256 + b]`.
    private let classes: [Bool]
    /// The bytes of the ``Instruction/literal(offset:count:)`` instructions, one after another.
    private let literals: [UInt8]
    private let captureCount: Int
    /// The bytes a match can start with, when every match starts with one (a pattern that may match empty,
    /// or starts with an anchor, has none): start positions at other bytes are skipped without running the
    /// program, as most of a key URI is where a `[?&]cid=` search cannot start.
    private let firstBytes: ByteSet?
    /// Whether every match starts with `^`, which holds at the text's start only: no other start position
    /// is tried (a template variable's pattern is anchored so, and its value is checked at every key).
    private let anchoredAtStart: Bool
    /// The class and bounds of a pattern that is one class repeated, anchored at both ends (`^[0-9a-f]{32}$`,
    /// what a template variable's pattern mostly is once anchored): a text matches when its length is within
    /// the bounds and every byte is in the class, which one scan tells without the backtracking machine.
    private let wholeRun: (set: Int, min: Int, max: Int)?
    /// Whether the program has no alternative to go back to (no split, and no greedy run that gives back):
    /// a run from a start position matches or fails without backtracking (`[?&]cid=(?<cid>[^&]+)`, most
    /// `--match` patterns), so it runs without the machine's stack of frames.
    private let linear: Bool

    private enum Instruction: Sendable {
        case byte(UInt8)
        /// `count` bytes as they are, from `literals[offset...]`: a pattern's literal text (a URI's scheme,
        /// host and path) compared at once instead of a step a byte.
        case literal(offset: Int, count: Int)
        case set(Int)
        case any
        case split(Int, Int)
        case jump(Int)
        case save(Int)
        case lineStart
        case lineEnd
        case match
        /// A greedy `X{min,max}` (`X*`, `X+`, `X{32}`) of a one-byte matcher (class `i`): takes every byte it
        /// can at once, up to `max`, fails under `min`, and leaves one frame that gives them back one at a
        /// time down to `min`, as the splits it stands for would, unless giving back can never help
        /// (`givesBack` false: what follows cannot start with a byte of the class, as in `[^&]+&`, or is the
        /// end of the pattern or of the text).
        case greedyRun(Int, min: Int, max: Int, givesBack: Bool)
    }

    /// The steps a match may take before the matcher gives up and leaves the text to Swift's `Regex`.
    private static let stepBudget = 100_000

    /// The longest program compiled: counted repetitions are unrolled, so nested ones multiply
    /// (`((a{1,1000}){1,1000}){1,1000}` would be 10⁹ instructions); longer ones are left to Swift's `Regex`.
    static let maximumProgramSize = 10_000

    /// Whether `pattern` reads as a whole in the syntax this matcher runs (what ``compile(_:)`` would
    /// accept, without building the program).
    package static func reads(_ pattern: String) -> Bool { parse(pattern) != nil }

    /// The tree of `pattern` and its parser's classes, names and groups, or `nil` if it uses syntax this
    /// matcher leaves to Swift's `Regex`, or would compile to too long a program.
    private static func parse(_ pattern: String) -> (tree: Node, parser: Parser)? {
        guard Bytes.isASCII(pattern.utf8) else { return nil }
        var parser = Parser(pattern: Array(pattern.utf8))
        guard let tree = parser.alternation(), parser.position == parser.pattern.count,
            Compiler.size(of: tree) <= maximumProgramSize
        else { return nil }
        return (tree, parser)
    }

    /// The program for `pattern`, or `nil` if it uses syntax this matcher leaves to Swift's `Regex`.
    package static func compile(_ pattern: String) -> ByteRegex? {
        guard let (tree, parser) = parse(pattern) else { return nil }
        var compiler = Compiler(classes: parser.classes)
        compiler.emit(.save(0))
        compiler.compile(tree)
        compiler.emit(.save(1))
        compiler.emit(.match)
        compiler.markRunsThatNeedNotGiveBack()
        let first = Self.firstBytes(of: tree, classes: parser.classes)
        return ByteRegex(
            groupNames: parser.names, program: compiler.program, classes: compiler.classes.flatMap { $0 },
            literals: compiler.literals, captureCount: parser.groupCount + 1,
            firstBytes: first?.nullable == false ? first.map { ByteSet($0.bytes) } : nil,
            anchoredAtStart: startsWithLineStart(tree), wholeRun: wholeRun(of: compiler.program),
            linear: compiler.program.allSatisfy { instruction in
                switch instruction {
                case .split, .jump: false
                case .greedyRun(_, _, _, let givesBack): !givesBack
                default: true
                }
            })
    }

    /// The class and bounds of `program` when it is `^X{min,max}$` for a one-byte `X`, and nothing else.
    private static func wholeRun(of program: [Instruction]) -> (set: Int, min: Int, max: Int)? {
        guard program.count == 6, case .save(0) = program[0], case .lineStart = program[1],
            case .greedyRun(let set, let min, let max, _) = program[2], case .lineEnd = program[3], case .save(1) = program[4],
            case .match = program[5]
        else { return nil }
        return (set, min, max)
    }

    /// Whether every match of `node` begins with `^`: a `^` first, in every branch.
    private static func startsWithLineStart(_ node: Node) -> Bool {
        switch node {
        case .lineStart: return true
        case .group(let inner, _): return startsWithLineStart(inner)
        case .repetition(let inner, let min, _, _): return min > 0 && startsWithLineStart(inner)
        case .concatenation(let items): return items.first.map(startsWithLineStart) ?? false
        case .alternation(let branches): return !branches.isEmpty && branches.allSatisfy(startsWithLineStart)
        case .byte, .set, .any, .lineEnd: return false
        }
    }

    /// The bytes a match of `node` can start with, and whether it can match empty; `nil` where an anchor
    /// decides.
    private static func firstBytes(of node: Node, classes: [[Bool]]) -> (bytes: [Bool], nullable: Bool)? {
        switch node {
        case .byte(let byte):
            var bytes = [Bool](repeating: false, count: 256)
            bytes[Int(byte)] = true
            return (bytes, false)
        case .set(let index):
            return (classes[index], false)
        case .any:
            return ((0..<256).map { $0 < 0x0A || $0 > 0x0D }, false)
        case .lineStart, .lineEnd:
            return nil
        case .group(let inner, _):
            return firstBytes(of: inner, classes: classes)
        case .repetition(let inner, let min, _, _):
            guard let first = firstBytes(of: inner, classes: classes) else { return nil }
            return (first.bytes, first.nullable || min == 0)
        case .concatenation(let items):
            var bytes = [Bool](repeating: false, count: 256)
            for item in items {
                guard let first = firstBytes(of: item, classes: classes) else { return nil }
                for index in 0..<256 where first.bytes[index] { bytes[index] = true }
                if !first.nullable { return (bytes, false) }
            }
            return (bytes, true)
        case .alternation(let branches):
            var bytes = [Bool](repeating: false, count: 256)
            var nullable = false
            for branch in branches {
                guard let first = firstBytes(of: branch, classes: classes) else { return nil }
                for index in 0..<256 where first.bytes[index] { bytes[index] = true }
                nullable = nullable || first.nullable
            }
            return (bytes, nullable)
        }
    }

    /// A set of bytes as 256 bits: asked at every start position of a match, without an array's bounds
    /// check and reference count.
    private struct ByteSet: Sendable {
        private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        /// The members, when there are three at most (`[?&]`, a literal's first byte): found with memchr.
        private var few: [UInt8]?

        init(_ members: [Bool]) {
            let count = members.lazy.filter { $0 }.count
            if count <= 3 { few = members.indices.filter { members[$0] }.map { UInt8($0) } }
            for byte in members.indices where members[byte] {
                let bit = UInt64(1) << UInt64(byte & 63)
                switch byte >> 6 {
                case 0: words.0 |= bit
                case 1: words.1 |= bit
                case 2: words.2 |= bit
                default: words.3 |= bit
                }
            }
        }

        func contains(_ byte: UInt8) -> Bool {
            let word: UInt64
            switch byte >> 6 {
            case 0: word = words.0
            case 1: word = words.1
            case 2: word = words.2
            default: word = words.3
            }
            return word & (UInt64(1) << UInt64(byte & 63)) != 0
        }

        /// The first position at or after `start` whose byte is a member, or `nil`.
        func next(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            guard start < text.count, let base = text.baseAddress else { return nil }
            guard let few else { return (start..<text.count).first { contains(text[$0]) } }
            var found: Int?
            for byte in few {
                let end = found ?? text.count
                guard end > start, let at = memchr(base + start, Int32(byte), end - start) else { continue }
                found = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(at))
            }
            return found
        }
    }

    /// What a match of the byte matcher found: the captures of a match (byte ranges by group, `nil` for a
    /// group that took no part), no match, or nothing it can say (it gave up: the caller falls back to Swift's
    /// `Regex`).
    package enum Match {
        case found([Range<Int>?])
        case noMatch
        case gaveUp
    }

    /// The first match in `text`, bytes read in place (a native string's UTF-8, without a copy).
    package func firstMatch(in text: UnsafeBufferPointer<UInt8>) -> Match {
        var scratch = Scratch()
        return firstMatch(in: text, scratch: &scratch)
    }

    /// The same with the caller's working memory, for a caller that matches again and again (a key period
    /// at a time): two allocations and their release a match otherwise.
    package func firstMatch(in text: UnsafeBufferPointer<UInt8>, scratch: inout Scratch) -> Match {
        // One scan, within the step budget the machine would have (beyond it, the machine gives up too).
        if let wholeRun, text.count < Self.stepBudget / 2 {
            guard text.count >= wholeRun.min, text.count <= wholeRun.max else { return .noMatch }
            let accepted = classes.withUnsafeBufferPointer { classes in
                let row = UnsafeBufferPointer(rebasing: classes[(wholeRun.set &* 256)..<(wholeRun.set &* 256 &+ 256)])
                return text.allSatisfy { row[Int($0)] }
            }
            guard accepted else { return .noMatch }
            if scratch.captures.count != 1 { scratch.captures = [nil] }
            scratch.captures[0] = 0..<text.count
            return .found(scratch.captures)
        }
        var steps = 0
        // Sized once: each start position resets the slots it uses.
        if scratch.slots.count != captureCount * 2 { scratch.slots = [Int](repeating: -1, count: captureCount * 2) }
        // Room for a frame per byte and a few more, at once: grown one doubling at a time, the stack cost
        // more than the match (six reallocations for a key URI).
        if !linear, scratch.stack.capacity < 2 * text.count + 16 { scratch.stack.reserveCapacity(2 * text.count + 16) }
        let last = anchoredAtStart ? 0 : text.count
        var start = 0
        while start <= last {
            // Only where a match can begin (never at the end: a pattern with first bytes matches nothing empty).
            if let firstBytes {
                guard let next = firstBytes.next(in: text, from: start), next <= last else { break }
                start = next
            }
            defer { start += 1 }
            let outcome =
                linear
                ? runLinear(text, from: start, steps: &steps, slots: &scratch.slots)
                : run(text, from: start, steps: &steps, slots: &scratch.slots, stack: &scratch.stack)
            switch outcome {
            case .matched:
                // Into the scratch's array: the caller's copy of it is released before the next match, which
                // then writes into the same storage.
                if scratch.captures.count != captureCount { scratch.captures = Array(repeating: nil, count: captureCount) }
                for group in 0..<captureCount {
                    let (from, to) = (scratch.slots[2 * group], scratch.slots[2 * group + 1])
                    scratch.captures[group] = from >= 0 && to >= from ? from..<to : nil
                }
                return .found(scratch.captures)
            case .noMatch: continue
            case .gaveUp: return .gaveUp
            }
        }
        return .noMatch
    }

    /// The working memory of matches: capture slots, the backtracking stack and the captures returned,
    /// kept from one to the next.
    package struct Scratch {
        package init() {}
        fileprivate var slots: [Int] = []
        fileprivate var stack: [Frame] = []
        fileprivate var captures: [Range<Int>?] = []
    }

    private enum Outcome {
        /// The captures are in the slots.
        case matched
        case noMatch
        case gaveUp
    }

    fileprivate enum Frame {
        case resume(pc: Int, position: Int)
        case restore(slot: Int, value: Int)
        /// A greedy run's alternatives: resume at `pc` from `position`, then one byte shorter, down to
        /// `lowest`.
        case retreat(pc: Int, lowest: Int, position: Int)
    }

    /// The backtracking machine: a stack of alternatives to try, and of capture values to restore.
    /// `slots` and `stack` are the caller's, reused from one start position to the next.
    private func run(
        _ text: UnsafeBufferPointer<UInt8>, from start: Int, steps: inout Int, slots: inout [Int], stack: inout [Frame]
    ) -> Outcome {
        for index in slots.indices { slots[index] = -1 }
        stack.removeAll(keepingCapacity: true)
        stack.append(.resume(pc: 0, position: start))
        // The program and the classes are read through buffer pointers, like the text: the array accesses of
        // the innermost loop otherwise cost a bounds check each, and a nested array a retain.
        return program.withUnsafeBufferPointer { program in
            classes.withUnsafeBufferPointer { classes in
                literals.withUnsafeBufferPointer { literals in
                    while let frame = stack.popLast() {
                        var pc: Int
                        var position: Int
                        switch frame {
                        case .restore(let slot, let value):
                            slots[slot] = value
                            continue
                        case .resume(let resumePC, let resumePosition):
                            pc = resumePC
                            position = resumePosition
                        case .retreat(let resumePC, let lowest, let resumePosition):
                            if resumePosition > lowest {
                                stack.append(.retreat(pc: resumePC, lowest: lowest, position: resumePosition - 1))
                            }
                            pc = resumePC
                            position = resumePosition
                        }
                        thread: while true {
                            steps += 1
                            if steps > Self.stepBudget { return .gaveUp }
                            switch program[pc] {
                            case .byte, .literal, .set, .any, .lineStart, .lineEnd:
                                guard let next = Self.consume(program[pc], text, at: position, steps: &steps, classes, literals) else {
                                    break thread
                                }
                                position = next
                                pc += 1
                            case .split(let preferred, let other):
                                stack.append(.resume(pc: other, position: position))
                                pc = preferred
                            case .jump(let target):
                                pc = target
                            case .save(let slot):
                                // Only an alternative on the stack could come back to the old value.
                                if !stack.isEmpty { stack.append(.restore(slot: slot, value: slots[slot])) }
                                slots[slot] = position
                                pc += 1
                            case .greedyRun(let index, let least, let most, let givesBack):
                                let end = Self.run(of: index, most: most, text, from: position, steps: &steps, classes)
                                guard end - position >= least else { break thread }
                                if givesBack, end > position + least {
                                    stack.append(.retreat(pc: pc + 1, lowest: position + least, position: end - 1))
                                }
                                position = end
                                pc += 1
                            case .match:
                                return .matched
                            }
                        }
                    }
                    return .noMatch
                }
            }
        }
    }

    /// A ``linear`` program's run from `start`: one pass, nothing to go back to. Its steps are counted as
    /// the machine counts them, so it gives up where the machine would.
    private func runLinear(_ text: UnsafeBufferPointer<UInt8>, from start: Int, steps: inout Int, slots: inout [Int]) -> Outcome {
        program.withUnsafeBufferPointer { program in
            classes.withUnsafeBufferPointer { classes in
                literals.withUnsafeBufferPointer { literals in
                    slots.withUnsafeMutableBufferPointer { slots in
                        slots.update(repeating: -1)
                        var position = start
                        for instruction in program {
                            steps += 1
                            if steps > Self.stepBudget { return .gaveUp }
                            switch instruction {
                            case .save(let slot):
                                slots[slot] = position
                            case .greedyRun(let index, let least, let most, _):
                                let end = Self.run(of: index, most: most, text, from: position, steps: &steps, classes)
                                guard end - position >= least else { return .noMatch }
                                position = end
                            case .match:
                                return .matched
                            case .split, .jump:
                                preconditionFailure("a linear program has no alternatives")
                            case .byte, .literal, .set, .any, .lineStart, .lineEnd:
                                guard let next = Self.consume(instruction, text, at: position, steps: &steps, classes, literals) else {
                                    return .noMatch
                                }
                                position = next
                            }
                        }
                        return .noMatch
                    }
                }
            }
        }
    }

    /// Where an instruction that reads the text at `position` (a byte, a literal, a class, `.`, an anchor)
    /// leaves it, or `nil` where it fails.
    @inline(__always)
    private static func consume(
        _ instruction: Instruction, _ text: UnsafeBufferPointer<UInt8>, at position: Int, steps: inout Int,
        _ classes: UnsafeBufferPointer<Bool>, _ literals: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        switch instruction {
        case .byte(let byte):
            guard position < text.count, text[position] == byte else { return nil }
            return position + 1
        case .literal(let offset, let count):
            guard text.count - position >= count, memcmp(text.baseAddress! + position, literals.baseAddress! + offset, count) == 0
            else { return nil }
            steps += count - 1
            return position + count
        case .set(let index):
            guard position < text.count, classes[index &* 256 &+ Int(text[position])] else { return nil }
            return position + 1
        case .any:
            // Swift's `.` refuses every line terminator: in ASCII LF, VT, FF and CR (non-ASCII text, where
            // NEL, LS and PS would be, goes to Swift's Regex).
            guard position < text.count, text[position] < 0x0A || text[position] > 0x0D else { return nil }
            return position + 1
        case .lineStart:
            return position == 0 ? position : nil
        case .lineEnd:
            return position == text.count ? position : nil
        case .split, .jump, .save, .greedyRun, .match:
            return position
        }
    }

    /// The end of the longest run of class `index` from `position`, at most `most` bytes, its bytes counted
    /// as steps.
    @inline(__always)
    private static func run(
        of index: Int, most: Int, _ text: UnsafeBufferPointer<UInt8>, from position: Int, steps: inout Int,
        _ classes: UnsafeBufferPointer<Bool>
    ) -> Int {
        var end = position
        let limit = most < text.count - position ? position + most : text.count
        while end < limit, classes[index &* 256 &+ Int(text[end])] { end += 1 }
        steps += end - position
        return end
    }

    // MARK: Parsing

    fileprivate indirect enum Node {
        case byte(UInt8)
        case set(Int)
        case any
        case lineStart
        case lineEnd
        case group(Node, capture: Int?)
        case concatenation([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?, greedy: Bool)
    }

    private struct Parser {
        let pattern: [UInt8]
        var position = 0
        var groupCount = 0
        var names: [(index: Int, name: String)] = []
        var classes: [[Bool]] = []

        init(pattern: [UInt8]) { self.pattern = pattern }

        var peek: UInt8? { position < pattern.count ? pattern[position] : nil }

        mutating func alternation() -> Node? {
            var branches: [Node] = []
            while true {
                guard let branch = concatenation() else { return nil }
                branches.append(branch)
                guard peek == UInt8(ascii: "|") else { break }
                position += 1
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func concatenation() -> Node? {
            var items: [Node] = []
            while let byte = peek, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                guard let atom = atom(), let item = quantified(atom) else { return nil }
                items.append(item)
            }
            return .concatenation(items)
        }

        mutating func quantified(_ atom: Node) -> Node? {
            var node = atom
            while let byte = peek {
                var bounds: (Int, Int?)
                switch byte {
                case UInt8(ascii: "*"): bounds = (0, nil)
                case UInt8(ascii: "+"): bounds = (1, nil)
                case UInt8(ascii: "?"): bounds = (0, 1)
                case UInt8(ascii: "{"):
                    guard let counted = counts() else { return nil }
                    bounds = counted
                default: return node
                }
                position += 1
                var greedy = true
                if peek == UInt8(ascii: "?") {
                    greedy = false
                    position += 1
                } else if peek == UInt8(ascii: "+") {
                    return nil  // possessive: left to Swift's Regex
                }
                if case .repetition = node { return nil }  // a quantified quantifier: left to Swift's Regex
                node = .repetition(node, min: bounds.0, max: bounds.1, greedy: greedy)
            }
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}`; leaves `position` on the closing brace.
        mutating func counts() -> (Int, Int?)? {
            var cursor = position + 1
            func number() -> Int? {
                let start = cursor
                while cursor < pattern.count, pattern[cursor] >= 0x30, pattern[cursor] <= 0x39 { cursor += 1 }
                guard cursor > start, cursor - start < 5 else { return nil }
                return Int(String(decoding: pattern[start..<cursor], as: UTF8.self))
            }
            guard let low = number() else { return nil }
            var high: Int? = low
            if cursor < pattern.count, pattern[cursor] == UInt8(ascii: ",") {
                cursor += 1
                high = cursor < pattern.count && pattern[cursor] == UInt8(ascii: "}") ? nil : number()
                if high == nil, !(cursor < pattern.count && pattern[cursor] == UInt8(ascii: "}")) { return nil }
            }
            // How large a count may be is the program's size to say (``maximumProgramSize``): a run of one
            // byte class compiles to one instruction whatever its count (a token's `[A-Za-z0-9._~%+/=-]{16,4096}`).
            guard cursor < pattern.count, pattern[cursor] == UInt8(ascii: "}"), high.map({ $0 >= low }) ?? true else {
                return nil
            }
            position = cursor
            return (low, high)
        }

        mutating func atom() -> Node? {
            guard let byte = peek else { return nil }
            position += 1
            switch byte {
            case UInt8(ascii: "."): return .any
            case UInt8(ascii: "^"): return .lineStart
            case UInt8(ascii: "$"): return .lineEnd
            case UInt8(ascii: "["): return bracket()
            case UInt8(ascii: "("): return group()
            case UInt8(ascii: "\\"):
                guard let escaped = escape(inClass: false) else { return nil }
                return node(escaped)
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "]"):
                return nil
            default: return .byte(byte)
            }
        }

        mutating func group() -> Node? {
            var capture: Int?
            if peek == UInt8(ascii: "?") {
                position += 1
                if peek == UInt8(ascii: ":") {
                    position += 1
                } else if peek == UInt8(ascii: "<"), position + 1 < pattern.count,
                    pattern[position + 1] != UInt8(ascii: "="), pattern[position + 1] != UInt8(ascii: "!")
                {
                    position += 1
                    let start = position
                    // A name starts with a letter or _ (Swift's Regex rejects the rest), and is not reused.
                    guard let first = peek, first == UInt8(ascii: "_") || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) else { return nil }
                    while let byte = peek, byte != UInt8(ascii: ">") {
                        guard byte == UInt8(ascii: "_") || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                        else { return nil }
                        position += 1
                    }
                    guard peek == UInt8(ascii: ">"), position > start else { return nil }
                    let name = String(decoding: pattern[start..<position], as: UTF8.self)
                    guard !names.contains(where: { $0.name == name }) else { return nil }
                    groupCount += 1
                    capture = groupCount
                    names.append((groupCount, name))
                    position += 1
                } else {
                    return nil  // lookaround, flags, atomic groups: left to Swift's Regex
                }
            } else {
                groupCount += 1
                capture = groupCount
            }
            guard let inner = alternation(), peek == UInt8(ascii: ")") else { return nil }
            position += 1
            return .group(inner, capture: capture)
        }

        /// What follows a backslash: a class (as a set) or a literal byte.
        mutating func escape(inClass: Bool) -> Either? {
            guard let byte = peek else { return nil }
            position += 1
            switch byte {
            case UInt8(ascii: "d"): return .set(Self.digits)
            case UInt8(ascii: "D"): return .set(Self.digits.map { !$0 })
            case UInt8(ascii: "w"): return .set(Self.word)
            case UInt8(ascii: "W"): return .set(Self.word.map { !$0 })
            case UInt8(ascii: "s"): return .set(Self.space)
            case UInt8(ascii: "S"): return .set(Self.space.map { !$0 })
            case UInt8(ascii: "t"): return .byte(0x09)
            case UInt8(ascii: "n"): return .byte(0x0A)
            case UInt8(ascii: "r"): return .byte(0x0D)
            case UInt8(ascii: "x"):
                // \xHH, two hex digits, an ASCII byte (a template's "[^\x00-\x1F\x7F]"); \x{…} is Swift's.
                guard position + 2 <= pattern.count, let high = Bytes.hexValue(pattern[position]),
                    let low = Bytes.hexValue(pattern[position + 1]), high < 8
                else { return nil }
                position += 2
                return .byte(high << 4 | low)
            default:
                // Escaped punctuation is itself; letters and digits have meanings this matcher leaves to
                // Swift's Regex (\b, \p, \1, \x…).
                let isAlphanumeric = (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                return isAlphanumeric ? nil : .byte(byte)
            }
        }

        enum Either {
            case byte(UInt8)
            case set([Bool])
        }

        mutating func node(_ value: Either) -> Node {
            switch value {
            case .byte(let byte): return .byte(byte)
            case .set(let set): return .set(add(set))
            }
        }

        mutating func add(_ set: [Bool]) -> Int {
            classes.append(set)
            return classes.count - 1
        }

        mutating func bracket() -> Node? {
            var set = [Bool](repeating: false, count: 256)
            var negated = false
            if peek == UInt8(ascii: "^") {
                negated = true
                position += 1
            }
            var first = true
            while let byte = peek, byte != UInt8(ascii: "]") || first {
                first = false
                position += 1
                var low: UInt8
                if byte == UInt8(ascii: "\\") {
                    switch escape(inClass: true) {
                    case .byte(let value)?: low = value
                    case .set(let members)?:
                        for index in 0..<256 where members[index] { set[index] = true }
                        continue
                    case nil: return nil
                    }
                } else if byte == UInt8(ascii: "[") {
                    return nil  // POSIX classes and nested sets: left to Swift's Regex
                } else {
                    low = byte
                }
                if peek == UInt8(ascii: "-"), position + 1 < pattern.count, pattern[position + 1] != UInt8(ascii: "]") {
                    position += 1
                    guard var high = peek else { return nil }
                    position += 1
                    if high == UInt8(ascii: "\\") {
                        guard case .byte(let value)? = escape(inClass: true) else { return nil }
                        high = value
                    }
                    guard high >= low else { return nil }
                    for index in low...high { set[Int(index)] = true }
                } else {
                    set[Int(low)] = true
                }
            }
            guard peek == UInt8(ascii: "]") else { return nil }
            position += 1
            if negated { set = set.map { !$0 } }
            return .set(add(set))
        }

        static let digits: [Bool] = (0..<256).map { $0 >= 0x30 && $0 <= 0x39 }
        static let word: [Bool] = (0..<256).map { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        static let space: [Bool] = (0..<256).map { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
    }

    // MARK: Compiling

    private struct Compiler {
        var program: [Instruction] = []
        var classes: [[Bool]]
        var literals: [UInt8] = []

        init(classes: [[Bool]]) { self.classes = classes }

        mutating func emit(_ instruction: Instruction) { program.append(instruction) }

        /// Marks each greedy run that giving bytes back can never help: the instruction after it (past any
        /// capture's save) is the match, the end of the text, or a byte, literal or class that no byte of the
        /// run's class can start. Giving back then only ever makes that instruction fail again, so the run
        /// leaves no frame (and, with no alternative left, its captures no restore frames either).
        mutating func markRunsThatNeedNotGiveBack() {
            for pc in program.indices {
                guard case .greedyRun(let set, let min, let max, true) = program[pc] else { continue }
                var next = pc + 1
                while next < program.count, case .save = program[next] { next += 1 }
                guard next < program.count else { continue }
                let followedBy: [Bool]?
                switch program[next] {
                case .match, .lineEnd: followedBy = nil
                case .byte(let byte): followedBy = (0..<256).map { $0 == Int(byte) }
                case .literal(let offset, let count) where count > 0: followedBy = (0..<256).map { $0 == Int(literals[offset]) }
                case .set(let other): followedBy = classes[other]
                default: continue
                }
                if let followedBy, (0..<256).contains(where: { classes[set][$0] && followedBy[$0] }) { continue }
                program[pc] = .greedyRun(set, min: min, max: max, givesBack: false)
            }
        }

        /// Whether `node` matches exactly one byte: a byte, a class, `.`, or a non-capturing group of one.
        static func matchesOneByte(_ node: Node) -> Bool {
            switch node {
            case .set, .byte, .any: return true
            case .group(let inner, nil): return matchesOneByte(inner)
            default: return false
            }
        }

        /// The class of a node that ``matchesOneByte(_:)``, added to the classes when it has none of its
        /// own.
        mutating func singleByteClass(_ node: Node) -> Int? {
            switch node {
            case .set(let index): return index
            case .byte(let byte):
                var set = [Bool](repeating: false, count: 256)
                set[Int(byte)] = true
                classes.append(set)
                return classes.count - 1
            case .any:
                // As the `.any` instruction: every byte but the ASCII line terminators LF, VT, FF and CR.
                classes.append((0..<256).map { $0 < 0x0A || $0 > 0x0D })
                return classes.count - 1
            case .group(let inner, nil): return singleByteClass(inner)
            default: return nil
            }
        }

        /// Emits the literal bytes of a concatenation gathered in `run` (one `.byte` for a single one) and empties it.
        mutating func emitLiteral(_ run: inout [UInt8]) {
            if run.count == 1 {
                emit(.byte(run[0]))
            } else if run.count > 1 {
                emit(.literal(offset: literals.count, count: run.count))
                literals += run
            }
            run.removeAll()
        }

        /// How many instructions `node` compiles to, worked out without compiling it and saturating at
        /// `Int.max`, so that a pattern too large to unroll costs nothing to refuse.
        static func size(of node: Node) -> Int {
            func add(_ a: Int, _ b: Int) -> Int { a.addingReportingOverflow(b).overflow ? .max : a + b }
            func times(_ a: Int, _ b: Int) -> Int { a.multipliedReportingOverflow(by: b).overflow ? .max : a * b }
            switch node {
            case .byte, .set, .any, .lineStart, .lineEnd: return 1
            case .concatenation(let items): return items.reduce(0) { add($0, size(of: $1)) }
            case .group(let inner, let capture): return add(size(of: inner), capture == nil ? 0 : 2)
            case .alternation(let branches): return branches.reduce(0) { add($0, add(size(of: $1), 2)) }
            case .repetition(let inner, _, _, true) where matchesOneByte(inner):
                return 1  // a greedy run of one byte class: one `greedyRun`, as `compile` emits it
            case .repetition(let inner, let min, let max, _):
                let one = size(of: inner)
                let required = times(one, min)
                guard let max else { return add(required, add(one, 2)) }
                return add(required, times(add(one, 1), max - min))
            }
        }

        mutating func compile(_ node: Node) {
            switch node {
            case .byte(let byte): emit(.byte(byte))
            case .set(let index): emit(.set(index))
            case .any: emit(.any)
            case .lineStart: emit(.lineStart)
            case .lineEnd: emit(.lineEnd)
            case .concatenation(let items):
                var run: [UInt8] = []
                for item in items {
                    if case .byte(let byte) = item {
                        run.append(byte)
                        continue
                    }
                    emitLiteral(&run)
                    compile(item)
                }
                emitLiteral(&run)
            case .group(let inner, let capture):
                if let capture { emit(.save(2 * capture)) }
                compile(inner)
                if let capture { emit(.save(2 * capture + 1)) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    if index < branches.count - 1 {
                        let split = program.count
                        emit(.split(split + 1, -1))
                        compile(branch)
                        jumps.append(program.count)
                        emit(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        compile(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repetition(let inner, let min, let max, true) where Self.matchesOneByte(inner):
                // `[^&]+`, `\d*`, `.+`, `[0-9a-f]{32}`: a run taken at once instead of a split per byte
                // (three steps a byte, the most of a key URI's match, and of a value's pattern).
                emit(.greedyRun(singleByteClass(inner)!, min: min, max: max ?? Int.max, givesBack: true))
            case .repetition(let inner, let min, let max, let greedy):
                for _ in 0..<min { compile(inner) }
                if let max {
                    // Each optional copy: try it (or skip it, if lazy); skipping one skips the rest.
                    var exits: [Int] = []
                    for _ in min..<max {
                        let split = program.count
                        emit(.split(-1, -1))
                        compile(inner)
                        exits.append(split)
                        program[split] = greedy ? .split(split + 1, -1) : .split(-1, split + 1)
                    }
                    let end = program.count
                    for split in exits {
                        if case .split(let a, let b) = program[split] {
                            program[split] = .split(a == -1 ? end : a, b == -1 ? end : b)
                        }
                    }
                } else {
                    let loop = program.count
                    emit(.split(-1, -1))
                    compile(inner)
                    emit(.jump(loop))
                    let end = program.count
                    program[loop] = greedy ? .split(loop + 1, end) : .split(end, loop + 1)
                }
            }
        }
    }
}
