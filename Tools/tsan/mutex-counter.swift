// Two threads add to one counter under a Synchronization.Mutex; the total comes out right.
import Glibc
import Synchronization

final class Box: Sendable { let count = Mutex(0) }
let box = Box()
func work(_ p: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    for _ in 0..<100_000 { box.count.withLock { $0 += 1 } }
    return nil
}
var threads: [pthread_t] = []
for _ in 0..<2 { var t = pthread_t(); pthread_create(&t, nil, work, nil); threads.append(t) }
for t in threads { pthread_join(t, nil) }
print("total", box.count.withLock { $0 })
