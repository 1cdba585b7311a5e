/// A sample of numbers summarised: count, mean, standard deviation, and the ranks a reader
/// of GPS figures asks for. Empty samples have no distribution (nil), never zeros.
public struct Distribution: Hashable, Sendable {
    /// The finite values in the sample.
    public let count: Int
    /// Their arithmetic mean.
    public let mean: Double
    /// The sample standard deviation (divided by count − 1, as numpy's `std(ddof=1)` and
    /// gpsprof's `sigma`); 0 for a single value.
    public let standardDeviation: Double
    /// The smallest value.
    public let minimum: Double
    /// The value at the middle rank, counted as ``percentile(_:of:)`` counts it.
    public let median: Double
    /// The 95th percentile, counted as ``percentile(_:of:)`` counts it.
    public let percentile95: Double
    /// The largest value.
    public let maximum: Double

    /// nil for an empty sample; non-finite values are left out (a caller's NaN is "unknown").
    public init?(_ values: [Double]) {
        let sorted = values.filter { $0.isFinite }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        count = sorted.count
        mean = Self.mean(sorted)
        standardDeviation = Self.standardDeviation(sorted, mean: mean)
        minimum = first
        maximum = last
        median = Self.percentile(0.5, of: sorted)
        percentile95 = Self.percentile(0.95, of: sorted)
    }

    /// The value at rank ⌊n·p⌋ of `sorted` (zero-based, held to the last), as gpsprof counts its
    /// CEP(50) and CEP(95): the value that a fraction p of the sample lies below.
    public static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        precondition(!sorted.isEmpty, "a percentile of nothing")
        let rank = Int((p * Double(sorted.count)).rounded(.down))
        return sorted[max(0, min(sorted.count - 1, rank))]
    }

    /// The mean, summed pairwise so that a million values lose no more than a few ulps.
    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : pairwiseSum(values[...]) / Double(values.count)
    }

    static func standardDeviation(_ values: [Double], mean: Double) -> Double {
        guard values.count > 1 else { return 0 }
        let squares = values.map { ($0 - mean) * ($0 - mean) }
        return (pairwiseSum(squares[...]) / Double(values.count - 1)).squareRoot()
    }

    private static func pairwiseSum(_ values: ArraySlice<Double>) -> Double {
        guard values.count > 64 else { return values.reduce(0, +) }
        let middle = values.startIndex + values.count / 2
        return pairwiseSum(values[..<middle]) + pairwiseSum(values[middle...])
    }
}
