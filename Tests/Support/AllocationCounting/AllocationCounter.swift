// SPDX-License-Identifier: GPL-2.0-or-later
// Shared by the test targets that prove code allocation-free (BeaconCodecTests, BeaconCaptureTests).

#if os(Linux) && canImport(Glibc)
import Glibc

/// Counts Swift heap objects allocated while `body` runs, through the Swift runtime's own hook.
///
/// `libswiftCore` exports `_swift_allocObject`, a function pointer that `swift_allocObject` calls
/// instead of its own implementation once it has been replaced. Every Swift heap allocation goes
/// through it: array and string storage, class instances, closure contexts, boxes for captured
/// variables, existential boxes and boxed errors — everything an "allocation-free" encode or
/// decode could accidentally do. (Raw `malloc` is not counted; the codec never calls it.)
///
/// Why this only runs in an exit test's child process: replacing the hook also switches the
/// runtime into its "swizzled" reference-counting mode
/// (`_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly`), and on Linux
/// x86-64 (Swift 6.3.1) that mode's `swift_retain` adapter masks the word before checking it, so
/// retaining a small string's payload word crashes. Other tests copy strings all the time, so the
/// hook must never be live in the shared test process; in the child, nothing else runs, the
/// measured code touches no strings, and the hook and the flag are both put back before returning.
public enum AllocationCounter {
    public typealias AllocObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    /// Counted allocations; only the measured (single) thread runs while the hook is in place.
    nonisolated(unsafe) public static var count = 0

    /// The number of Swift heap allocations `body` makes, or `nil` if the runtime does not
    /// export the hook any more.
    public static func allocations(in body: () -> Void) -> Int? {
        let rtldDefault = UnsafeMutableRawPointer(bitPattern: 0)
        guard let slotSymbol = dlsym(rtldDefault, "_swift_allocObject"),
              let flagSymbol = dlsym(rtldDefault, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
        else { return nil }
        let slot = slotSymbol.assumingMemoryBound(to: AllocObject?.self)
        let flag = flagSymbol.assumingMemoryBound(to: Bool.self)
        guard let original = slot.pointee else { return nil }
        let wasSwizzling = flag.pointee

        // Swift Testing installs a "will throw" handler (to record where errors are thrown);
        // with one installed, the runtime boxes every typed error as `any Error` to pass it on,
        // which allocates. A program without such a handler does not box, so measure without it.
        let willThrowSlots = [
            dlsym(rtldDefault, "_swift_willThrow"), dlsym(rtldDefault, "_swift_willThrowTypedImpl"),
        ].map { $0?.assumingMemoryBound(to: UnsafeRawPointer?.self) }
        let willThrowHandlers = willThrowSlots.map { $0?.pointee }
        for slot in willThrowSlots { slot?.pointee = nil }
        defer { for (slot, handler) in zip(willThrowSlots, willThrowHandlers) { slot?.pointee = handler } }

        // A C function pointer cannot capture `original`; park it where the hook can read it.
        originalAllocObject = original
        count = 0
        slot.pointee = { metadata, size, alignmentMask in
            AllocationCounter.count += 1
            return AllocationCounter.originalAllocObject.unsafelyUnwrapped(metadata, size, alignmentMask)
        }
        body()
        slot.pointee = original
        flag.pointee = wasSwizzling
        return count
    }

    nonisolated(unsafe) static var originalAllocObject: AllocObject?
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
@inline(never) public func keep<T>(_ value: T) { withExtendedLifetime(value) {} }
#endif
