import Foundation

extension Thread {
    /// Names the calling thread as the kernel shows it (`top -H`, `perf`, `/proc`); Linux keeps 15
    /// bytes of it.
    ///
    /// Not `Thread.current.name`: on Linux, Foundation applies a name to the pthread it recorded
    /// when `start()` returned, so it drops one set before then — even from inside, when the new
    /// thread runs first — and the thread keeps the name of whichever thread started it.
    package static func nameCurrent(_ name: String) {
        #if os(Linux)
        // A thread may rename itself through its `comm` file. (Swift's Glibc module leaves out
        // `pthread_setname_np`, and `prctl` is variadic.)
        let comm = open("/proc/thread-self/comm", O_WRONLY)
        guard comm >= 0 else { return }
        _ = name.withCString { write(comm, $0, strlen($0)) }
        close(comm)
        #else
        Thread.current.name = name
        #endif
    }
}
