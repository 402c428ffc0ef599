"""What the fleet bench's scripts share: PromQL's quantile() interpolation."""


def quantile(q, xs):
    """PromQL's quantile(): linear interpolation between the closest ranks of the sorted values."""
    xs = sorted(xs)
    rank = q * (len(xs) - 1)
    lo = int(rank)
    return xs[lo] if lo + 1 >= len(xs) else xs[lo] + (xs[lo + 1] - xs[lo]) * (rank - lo)
