// SPDX-License-Identifier: GPL-2.0-or-later
// Compiled into every fuzz target (see scripts/fuzz): how a target reports a broken invariant.
#if canImport(Glibc)
import Glibc
#endif

/// Stops the run when an invariant does not hold. `abort()` rather than `fatalError`: libFuzzer
/// catches SIGABRT like any crash and saves the input as `crash-<sha1>`, and the message above it
/// says which property broke, not only that something did.
@inline(never)
func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if condition { return }
    fputs("fuzz invariant broken at \(file):\(line): \(message())\n", stderr)
    abort()
}

/// The fuzzer's input as a buffer (libFuzzer passes a null pointer for the empty input).
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size)
}

/// A deterministic stream of choices drawn from the input's own bytes, for targets that need more
/// than the data itself (chunk sizes): the same input always makes the same choices, so a saved
/// crash input reproduces exactly.
struct InputChoices {
    private var state: UInt64

    init(seed bytes: UnsafeRawBufferPointer) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        state = h
    }

    /// A number in 1...limit (splitmix64 step).
    mutating func next(upTo limit: Int) -> Int {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        z ^= z >> 31
        return Int(z % UInt64(max(limit, 1))) + 1
    }
}
