import RunWalkRuntime

/// Names the calling thread for the kernel; the one implementation is the runtime's (its clock
/// thread needs it, and the runtime cannot import this module). Adapters name theirs through this.
public typealias KernelThreadName = RunWalkRuntime.KernelThreadName
