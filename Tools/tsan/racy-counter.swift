// The checker's self-test: a real race (no lock at all), which check.py must report.
import Glibc
final class Box: @unchecked Sendable { var count = 0 }
let box = Box()
func work(_ p: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    for _ in 0..<100_000 { box.count += 1 }
    return nil
}
var threads: [pthread_t] = []
for _ in 0..<2 { var t = pthread_t(); pthread_create(&t, nil, work, nil); threads.append(t) }
for t in threads { pthread_join(t, nil) }
print("total", box.count)
