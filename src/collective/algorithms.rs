//! The broadcast algorithms and their closed forms.
//!
//! With `s(b)` = [`Network::gap`] and `d(b)` = [`Network::delivery`] of a
//! message of b bytes (under Hockney both are α + bβ, written c below):
//!
//! | algorithm | time | Hockney |
//! |---|---|---|
//! | flat tree | (p − 2) s(n) + d(n) | (p − 1) c(n) |
//! | binomial tree | its longest path: d per hop, s per earlier sibling | ⌈log₂ p⌉ c(n) |
//! | chain, k segments of n/k | (p − 1) d + (k − 1) s | (p + k − 2) c(n/k) |
//! | binary tree, k segments | 2(k − 1) s + the heap's longest path | c(n/k) (2(k − 1) + P) |
//! | split-binary tree | two binary trees on n/2, then one exchange of n/2 | see [`split_binary`] |
//! | scatter + recursive doubling | scatter, then log₂ p exchanges doubling | 2 log₂ p α + 2(p − 1)/p nβ |
//! | scatter + ring | scatter, then p − 1 ring steps | (⌈log₂ p⌉ + p − 1) α + 2(p − 1)/p nβ |
//!
//! Each closed form is exact (equal to the simulated schedule) where
//! [`Algorithm::exact`] says so; the others are the usual estimates, and
//! the simulator measures how far off they are.

use super::Network;

/// The broadcast algorithms, in the order the tables list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// The root sends the whole message to every other process in turn (Dryad).
    Flat,
    /// A binomial tree: a process that has the message sends it to the
    /// first process of the upper half of its group, then goes on with the
    /// lower half (MS-MPI; MPICH for short messages).
    Binomial,
    /// A chain 0 → 1 → … → p − 1 carrying k segments one behind another (Fox).
    Chain,
    /// A binary tree (the children of i are 2i + 1 and 2i + 2) carrying k
    /// segments; each node sends a segment to its left child, then to its right.
    Binary,
    /// Two binary trees, of the odd and of the even ranks, each get one half
    /// of the message in k segments; then ranks 2i + 1 and 2i + 2 swap
    /// halves (Pjesivac-Grbovic et al. 2007; Open MPI).
    SplitBinary,
    /// A binomial scatter of p pieces, then an allgather by recursive
    /// doubling (van de Geijn; MPICH's medium messages, p a power of two).
    ScatterRecursiveDoubling,
    /// A binomial scatter, then a ring allgather (MPICH's long messages, and
    /// medium ones when p is not a power of two).
    ScatterRing,
}

impl Algorithm {
    pub const ALL: [Algorithm; 7] = [
        Algorithm::Flat,
        Algorithm::Binomial,
        Algorithm::Chain,
        Algorithm::Binary,
        Algorithm::SplitBinary,
        Algorithm::ScatterRecursiveDoubling,
        Algorithm::ScatterRing,
    ];

    /// Its id in parameters and outputs.
    pub const fn id(self) -> &'static str {
        match self {
            Algorithm::Flat => "flat",
            Algorithm::Binomial => "binomial",
            Algorithm::Chain => "chain",
            Algorithm::Binary => "binary",
            Algorithm::SplitBinary => "split_binary",
            Algorithm::ScatterRecursiveDoubling => "scatter_rd",
            Algorithm::ScatterRing => "scatter_ring",
        }
    }

    /// Its name in a sentence or a legend.
    pub const fn label(self) -> &'static str {
        match self {
            Algorithm::Flat => "flat tree",
            Algorithm::Binomial => "binomial tree",
            Algorithm::Chain => "pipelined chain",
            Algorithm::Binary => "binary tree",
            Algorithm::SplitBinary => "split-binary tree",
            Algorithm::ScatterRecursiveDoubling => "scatter + recursive doubling",
            Algorithm::ScatterRing => "scatter + ring",
        }
    }

    pub fn from_id(id: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.id() == id)
    }

    /// Its place in [`Algorithm::ALL`].
    pub fn index(self) -> usize {
        Algorithm::ALL.iter().position(|a| *a == self).unwrap_or(0)
    }

    /// Whether it cuts the message into a chosen number of segments.
    pub const fn segmented(self) -> bool {
        matches!(self, Algorithm::Chain | Algorithm::Binary | Algorithm::SplitBinary)
    }

    /// Whether its closed form is its schedule's exact time under `network`
    /// (else an estimate; the simulator says by how much).
    pub const fn exact(self, network: &Network) -> bool {
        match self {
            Algorithm::Flat | Algorithm::Binomial | Algorithm::Chain | Algorithm::Binary | Algorithm::SplitBinary => {
                true
            }
            // Under LogGP a process starts its allgather as soon as its own
            // scatter sends are done, before the scatter ends everywhere.
            Algorithm::ScatterRecursiveDoubling | Algorithm::ScatterRing => {
                matches!(network, Network::Hockney { .. })
            }
        }
    }

    /// Why it has no time for `p` processes, if it has none.
    pub fn gap_reason(self, p: u64) -> Option<&'static str> {
        match self {
            Algorithm::ScatterRecursiveDoubling if !p.is_power_of_two() => Some(
                "recursive doubling pairs process i with i XOR 2ᵏ, which needs p to be a power of two; MPICH then uses the ring",
            ),
            _ => None,
        }
    }

    /// Its time for `p` ≥ 2 processes and `n` bytes in `k` segments (ignored
    /// when it is not segmented); `None` where its form does not apply.
    pub fn time(self, p: u64, n: f64, k: u64, net: &Network) -> Option<f64> {
        if p < 2 {
            return Some(0.0);
        }
        match self {
            Algorithm::Flat => Some(flat(p, n, net)),
            Algorithm::Binomial => Some(binomial(p, n, net)),
            Algorithm::Chain => Some(chain(p, n, k, net)),
            Algorithm::Binary => Some(binary(p, n, k, net)),
            Algorithm::SplitBinary => Some(split_binary(p, n, k, net)),
            Algorithm::ScatterRecursiveDoubling => scatter_recursive_doubling(p, n, net),
            Algorithm::ScatterRing => Some(scatter_ring(p, n, net)),
        }
    }

    /// Messages and bytes on its critical path at `k` segments: its time on
    /// a network where a message costs 1 (start-ups) and one where a byte
    /// costs 1.
    pub fn critical_path(self, p: u64, n: f64, k: u64) -> Option<(f64, f64)> {
        Some((self.time(p, n, k, &Network::MESSAGES)?, self.time(p, n, k, &Network::BYTES)?))
    }
}

/// ⌈log₂ p⌉ for p ≥ 1.
pub fn ceil_log2(p: u64) -> u32 {
    p.max(1).next_power_of_two().trailing_zeros()
}

/// The root sends n bytes to each of the p − 1 others in turn: (p − 2) s(n) + d(n).
pub fn flat(p: u64, n: f64, net: &Network) -> f64 {
    p.saturating_sub(2) as f64 * net.gap(n) + net.delivery(n)
}

/// A binomial tree over a group of `len` processes whose first has the
/// data: it sends to the first process of the upper ⌊len/2⌋ the message
/// `bytes(⌊len/2⌋)` bytes long, then goes on with the lower ⌈len/2⌉ one
/// send later, while the upper part does the same. The time until all have
/// theirs: F(len) = max(d + F(⌊len/2⌋), s + F(⌈len/2⌉)), F(1) = 0, over
/// the at most two sizes per level halving meets. With `until_free`, the
/// time until every process is also done sending (a last send holds its
/// sender s, not 0).
fn binomial_tree(
    len: u64,
    net: &Network,
    bytes: &dyn Fn(u64) -> f64,
    until_free: bool,
    memo: &mut Vec<(u64, f64)>,
) -> f64 {
    if len < 2 {
        return 0.0;
    }
    if let Some(&(_, t)) = memo.iter().find(|(l, _)| *l == len) {
        return t;
    }
    let (upper, lower) = (len / 2, len - len / 2);
    let b = bytes(upper);
    let sent = net.delivery(b) + binomial_tree(upper, net, bytes, until_free, memo);
    let kept = match (lower >= 2, until_free) {
        (true, _) => net.gap(b) + binomial_tree(lower, net, bytes, until_free, memo),
        (false, true) => net.gap(b),
        (false, false) => 0.0,
    };
    let t = sent.max(kept);
    memo.push((len, t));
    t
}

/// The binomial tree of n bytes; under Hockney ⌈log₂ p⌉ (α + nβ).
pub fn binomial(p: u64, n: f64, net: &Network) -> f64 {
    binomial_tree(p, net, &|_| n, false, &mut Vec::new())
}

/// A chain of k segments of n/k bytes: the first crosses p − 1 links, the
/// others follow one send apart: (p − 1) d + (k − 1) s.
pub fn chain(p: u64, n: f64, k: u64, net: &Network) -> f64 {
    let k = k.max(1);
    let b = n / k as f64;
    (p - 1) as f64 * net.delivery(b) + (k - 1) as f64 * net.gap(b)
}

/// The binary heap of `p` nodes: its depth D (nodes 2^D … p, numbered from
/// 1, are the deepest) and the most right edges R on a path to one of them.
pub fn heap_shape(p: u64) -> (u32, u32) {
    if p < 2 {
        return (0, 0);
    }
    let depth = 63 - p.leading_zeros();
    // The most 1 bits among 2^D … p: p itself, or p with a 1 bit cleared and every bit below it set.
    let mut most = p.count_ones();
    for bit in 0..depth {
        if p & (1 << bit) != 0 {
            let below = (p & !((1u64 << (bit + 1)) - 1)) | ((1u64 << bit) - 1);
            most = most.max(below.count_ones());
        }
    }
    (depth, most - 1)
}

/// The longest path from the root of a binary heap of `h` nodes to a node,
/// a left edge costing `d` and a right one `s + d` (the left child is
/// served first): max((D − 1)(d + s), D d + R s) over the deepest level and
/// the full one above it ([`heap_shape`]).
fn heap_path(h: u64, s: f64, d: f64) -> f64 {
    if h < 2 {
        return 0.0;
    }
    let (depth, rights) = heap_shape(h);
    let deepest = f64::from(depth) * d + f64::from(rights) * s;
    deepest.max(f64::from(depth - 1) * (d + s))
}

/// The binary tree of p nodes carrying k segments of n/k bytes. A node
/// sends each segment to its left child, then its right one, so segments
/// flow one per 2 s. With p = 2 the root has one child: (k − 1) s + d;
/// else 2(k − 1) s plus the heap's longest path.
pub fn binary(p: u64, n: f64, k: u64, net: &Network) -> f64 {
    let k = k.max(1);
    let b = n / k as f64;
    let (s, d) = (net.gap(b), net.delivery(b));
    if p < 3 {
        return (k - 1) as f64 * s + d;
    }
    2.0 * (k - 1) as f64 * s + heap_path(p, s, d)
}

/// The split-binary tree (as Open MPI builds it): the odd ranks form one
/// binary heap and get the first half, the even ranks another and get the
/// second, each half in k segments of n/(2k) that the root sends
/// alternately to the two heaps' roots; then rank 2i + 1 and 2i + 2 swap
/// halves, and when p is even the root sends the second half to the last
/// rank, which has no partner. Its time: the slower heap's last
/// segment, 2(k − 1) s + max(d + path(⌊p/2⌋), s + d + path(⌊(p − 1)/2⌋)),
/// then the wait for its port, max(0, s − d), and one exchange, d(n/2). With p = 2 the one child gets all 2k
/// segments: d + (2k − 1) s (exact).
pub fn split_binary(p: u64, n: f64, k: u64, net: &Network) -> f64 {
    let k = k.max(1);
    let b = n / (2 * k) as f64;
    let (s, d) = (net.gap(b), net.delivery(b));
    if p < 3 {
        return d + (2 * k - 1) as f64 * s;
    }
    let tree = 2.0 * (k - 1) as f64 * s + (d + heap_path(p / 2, s, d)).max(s + d + heap_path((p - 1) / 2, s, d));
    // The swap into the last node waits for its port to be free of its last segment.
    tree + (s - d).max(0.0) + net.delivery(n / 2.0)
}

/// The binomial scatter of p pieces of n/p bytes (a send that starts a
/// part carries that part's pieces): the time until every process has its
/// piece and is done sending, when an allgather can start everywhere.
/// Under Hockney ⌈log₂ p⌉ α + (p − 1)/p nβ.
pub fn scatter(p: u64, n: f64, net: &Network) -> f64 {
    let piece = n / p as f64;
    binomial_tree(p, net, &|part| part as f64 * piece, true, &mut Vec::new())
}

/// Scatter, then log₂ p exchanges of 1, 2, 4, … pieces (p a power of two;
/// `None` otherwise). Exact under Hockney: 2 log₂ p α + 2(p − 1)/p nβ;
/// under LogGP an estimate that starts every exchange after the whole
/// scatter and paces each by the slower of s and d (an upper bound:
/// processes start as soon as their own part is done).
pub fn scatter_recursive_doubling(p: u64, n: f64, net: &Network) -> Option<f64> {
    if p < 2 || !p.is_power_of_two() {
        return None;
    }
    let piece = n / p as f64;
    let steps = ceil_log2(p);
    let exchanges: f64 = (0..steps)
        .map(|i| {
            let b = piece * f64::from(1u32 << i);
            if i + 1 == steps {
                net.delivery(b)
            } else {
                net.step(b)
            }
        })
        .sum();
    Some(scatter(p, n, net) + exchanges)
}

/// Scatter, then p − 1 ring steps of one piece each. Exact under Hockney:
/// (⌈log₂ p⌉ + p − 1) α + 2(p − 1)/p nβ; under LogGP an estimate, as for
/// [`scatter_recursive_doubling`].
pub fn scatter_ring(p: u64, n: f64, net: &Network) -> f64 {
    let piece = n / p as f64;
    scatter(p, n, net) + (p - 2) as f64 * net.step(piece) + net.delivery(piece)
}

/// No broadcast is faster. Hockney: ⌈log₂ p⌉ α + nβ (the number of processes
/// that have the data at most doubles per start-up, and the last one
/// receives n bytes). LogGP: the last byte crosses once, l + 2o + (n − 1)G,
/// and the processes reached at most double every min(g, l + 2o) after the
/// first arrival, l + 2o + (⌈log₂ p⌉ − 1) min(g, l + 2o); the larger.
pub fn lower_bound(p: u64, n: f64, net: &Network) -> f64 {
    let rounds = f64::from(ceil_log2(p));
    match *net {
        Network::Hockney { alpha, beta } => rounds * alpha + n * beta,
        Network::LogGP { l, o, g, .. } => {
            let first = l + 2.0 * o;
            net.delivery(n).max(first + (rounds - 1.0).max(0.0) * g.min(first))
        }
    }
}

/// The largest segment count considered.
pub const MAX_SEGMENTS: u64 = 1 << 20;

/// The most segments `n` bytes can be cut into: segments of at least one
/// byte, and at most [`MAX_SEGMENTS`].
pub fn most_segments(n: f64) -> u64 {
    if n >= MAX_SEGMENTS as f64 {
        MAX_SEGMENTS
    } else {
        (n.floor() as u64).clamp(1, MAX_SEGMENTS)
    }
}

/// The segment count that makes `algorithm` fastest for `p` and `n`, and
/// that time. Its time is a k + b/k + c (or the larger of two such), convex
/// in k: a search over the integers 1 … [`most_segments`] narrows to the
/// best. Unsegmented algorithms: (1, their time).
pub fn best_segments(algorithm: Algorithm, p: u64, n: f64, net: &Network) -> (u64, f64) {
    let time = |k: u64| algorithm.time(p, n, k, net).unwrap_or(f64::INFINITY);
    if !algorithm.segmented() {
        return (1, time(1));
    }
    let (mut lo, mut hi) = (1u64, most_segments(n));
    while hi - lo > 2 {
        let m1 = lo + (hi - lo) / 3;
        let m2 = hi - (hi - lo) / 3;
        if time(m1) <= time(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo..=hi).map(|k| (k, time(k))).fold((1, f64::INFINITY), |best, (k, t)| if t < best.1 { (k, t) } else { best })
}

/// MPICH's default choice (MPIR_Bcast_intra of MPICH 3, after Thakur,
/// Rabenseifner and Gropp 2005): the binomial tree below
/// [`MPICH_SHORT`] bytes or [`MPICH_MIN_PROCS`] processes, scatter and
/// recursive doubling below [`MPICH_LONG`] bytes when p is a power of two,
/// scatter and ring otherwise.
pub fn mpich_choice(p: u64, n: f64) -> Algorithm {
    if n < MPICH_SHORT || p < MPICH_MIN_PROCS {
        Algorithm::Binomial
    } else if n < MPICH_LONG && p.is_power_of_two() {
        Algorithm::ScatterRecursiveDoubling
    } else {
        Algorithm::ScatterRing
    }
}

/// MPIR_CVAR_BCAST_SHORT_MSG_SIZE, bytes.
pub const MPICH_SHORT: f64 = 12288.0;
/// MPIR_CVAR_BCAST_LONG_MSG_SIZE, bytes.
pub const MPICH_LONG: f64 = 524_288.0;
/// MPIR_CVAR_BCAST_MIN_PROCS.
pub const MPICH_MIN_PROCS: u64 = 8;
